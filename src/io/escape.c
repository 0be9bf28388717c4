/* src/io/escape.c — untrusted bytes quoted safely in messages (escape.h). */
#include "io/escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s[0..n) of 2 to 4 bytes, 0
 * when there is none; *cp = its code point.  The ranges are the table of
 * well-formed byte sequences of RFC 3629 §4 (UTF8-2 … UTF8-4): the second
 * byte is restricted after E0 (no overlong forms), ED (no surrogates), F0
 * (no overlong forms) and F4 (nothing above U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, size_t n, unsigned long *cp)
{
    unsigned char b = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    unsigned long c;
    if (b >= 0xC2 && b <= 0xDF) {
        len = 2, c = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
        len = 3, c = b & 0x0Fu;
        lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4, c = b & 0x07u;
        lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        unsigned char t = s[i];
        if (t < (i == 1 ? lo : 0x80) || t > (i == 1 ? hi : 0xBF))
            return 0;
        c = c << 6 | (t & 0x3Fu);
    }
    *cp = c;
    return len;
}

/* Code points that are well-formed but change how the terminal shows what
 * follows: C1 controls, line/paragraph separators, bidi formatting (UAX #9). */
static bool hidden_effect(unsigned long cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

bool ul_io_has_control(const void *s, size_t len)
{
    const unsigned char *p = s;
    for (size_t i = 0; i < len;) {
        unsigned long cp = 0;
        size_t u = p[i] >= 0x80 ? utf8_sequence(p + i, len - i, &cp) : 0;
        if (u > 1 && hidden_effect(cp))
            return true;
        /* C0, DEL and a C1 byte outside a UTF-8 sequence (an 8-bit terminal's CSI is 0x9B) */
        if (u == 0 && (p[i] < 0x20 || (p[i] >= 0x7F && p[i] <= 0x9F)))
            return true;
        i += u > 1 ? u : 1;
    }
    return false;
}

const char *ul_io_escape(const void *s, size_t len, char *out, size_t outlen)
{
    const unsigned char *p = s;
    size_t o = 0, mark = 0; /* mark: the last unit boundary with room for "..." */
    for (size_t i = 0; i < len;) {
        unsigned long cp = 0;
        size_t u = (p[i] >= 0x20 && p[i] < 0x7F) ? 1 : utf8_sequence(p + i, len - i, &cp);
        bool keep = u == 1 || (u > 1 && !hidden_effect(cp));
        size_t bytes = u ? u : 1; /* an invalid byte is escaped alone */
        size_t need = keep ? bytes : 4 * bytes;
        if (o + need + 1 > outlen) {
            memcpy(out + mark, "...", 4);
            return out;
        }
        if (keep)
            memcpy(out + o, p + i, bytes), o += bytes;
        else
            for (size_t k = 0; k < bytes; k++, o += 4)
                snprintf(out + o, 5, "\\x%02X", p[i + k]);
        i += bytes;
        if (o + 4 <= outlen)
            mark = o;
    }
    out[o] = '\0';
    return out;
}

void ul_io_escape_message(char *msg, size_t msglen)
{
    if (msg == NULL || msglen < 4)
        return;
    size_t n = strnlen(msg, msglen - 1);
    char *copy = malloc(n + 1);
    if (copy == NULL) {
        /* no memory to expand: blank out everything that is not plain ASCII */
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)msg[i] < 0x20 || (unsigned char)msg[i] >= 0x7F)
                msg[i] = '?';
        msg[n] = '\0';
        return;
    }
    memcpy(copy, msg, n);
    ul_io_escape(copy, n, msg, msglen);
    free(copy);
}

ul_status ul_io_escaped(ul_status st, char *err, size_t errlen)
{
    if (st != UL_OK)
        ul_io_escape_message(err, errlen);
    return st;
}
