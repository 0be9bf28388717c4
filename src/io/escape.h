/* src/io/escape.h — untrusted bytes (data file contents, configuration
 * values, file names) made safe to quote in a one-line message on a
 * terminal, so that a data file cannot move the cursor, recolour the screen
 * or retitle the window of whoever reads the error (ECMA-48 control
 * sequences start with ESC 0x1B or with the C1 control CSI U+009B).
 *
 * Kept as they are:
 *   - printable ASCII, 0x20–0x7E (the backslash too, so that a message's own
 *     text such as "\x93NUMPY" stays readable);
 *   - a well-formed UTF-8 sequence (RFC 3629 §3-4: shortest form, no
 *     surrogates, at most U+10FFFF), unless it encodes a C1 control
 *     (U+0080–U+009F), a line or paragraph separator (U+2028, U+2029) or a
 *     bidirectional formatting character (U+200E, U+200F, U+202A–U+202E,
 *     U+2066–U+2069: Unicode UAX #9, they reorder the text shown after them).
 * Every other byte is written as \xNN (two upper-case hex digits): the C0
 * controls 0x00–0x1F (ESC, CR, LF, TAB, …), DEL 0x7F, each byte of an
 * invalid or truncated sequence, and each byte of the code points excepted
 * above.  The output is printable ASCII and well-formed UTF-8 only, so
 * escaping it again changes nothing.
 */
#ifndef UL_IO_ESCAPE_H
#define UL_IO_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "num/status.h"

/* True when s[0..len) holds a character that acts on a terminal: a C0
 * control 0x00–0x1F, DEL 0x7F, a C1 control (U+0080–U+009F in UTF-8, or a
 * byte 0x80–0x9F outside a well-formed sequence), a line or paragraph
 * separator or a bidirectional formatting character (the code points listed
 * above).  Other bytes that are not UTF-8 (a Latin-1 file name's é, 0xE9)
 * are not controls: ul_io_escape writes them as \xNN, this returns false. */
bool ul_io_has_control(const void *s, size_t len);

/* Escapes s[0..len) into out (outlen ≥ 4), NUL-terminated.  When the
 * escaped text does not fit, it is cut between two whole units (a byte, an
 * escape or a UTF-8 character) and ends in "...".  Returns out. */
const char *ul_io_escape(const void *s, size_t len, char *out, size_t outlen);

/* Escapes the NUL-terminated message msg in place, within its buffer of
 * msglen bytes (cut with "..." when the escapes make it longer).  For the
 * error buffer of a reader whose messages quote what it read.  NULL or
 * msglen < 4: nothing is done. */
void ul_io_escape_message(char *msg, size_t msglen);

/* st, after escaping err (ul_io_escape_message) when st is a failure: the
 * last step of a reader whose messages quote file names or contents. */
ul_status ul_io_escaped(ul_status st, char *err, size_t errlen);

#endif
