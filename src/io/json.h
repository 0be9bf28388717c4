/* src/io/json.h — a strict JSON document reader for certificates.
 *
 * Why not json-c (which the CLI uses for *writing* JSON)?  Measured on the
 * installed json-c 0.16 with JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8:
 *   - {"a":1,"a":2} parses to {"a":2}: a duplicate key silently replaces the
 *     first, and the tokener offers no hook to notice it;
 *   - NaN, Infinity and -Infinity are accepted as numbers even in strict mode;
 *   - 123456789012345678901234567890 becomes the integer 18446744073709551615
 *     (clamped to UINT64_MAX, no error): a wrong number, silently;
 *   - a raw TAB inside a string is accepted;
 *   - errors carry a byte offset only, never the JSON path.
 * A certificate reader must refuse all of these, and name the path.  So this
 * is a small recursive-descent reader (RFC 8259 grammar, nothing more) that
 * keeps every number as its original decimal TEXT (a number never passes
 * through a double: the certified layer reads the text exactly) and rejects,
 * each with a message naming the JSON path, the line:column and byte offset
 * and the rule broken:
 *   duplicate keys (also naming where the first one was), NaN / Infinity and
 *   other non-JSON number forms (+1, 01, .5, 1., hex), comments, trailing
 *   commas, single quotes, trailing content after the document, truncated
 *   input, invalid UTF-8 (overlong forms, surrogates, > U+10FFFF, stray
 *   bytes), a byte-order mark, raw control characters in strings, \u0000 and
 *   unpaired surrogate escapes, nesting deeper than UL_JSON_MAX_DEPTH, inputs
 *   larger than UL_JSON_MAX_BYTES, number literals longer than
 *   UL_JSON_MAX_NUMBER_CHARS, and empty input.
 *
 * Library rules: never exits, never prints; returns a ul_status with one line
 * in the caller's (err, errlen).  Nothing is allocated on failure.
 */
#ifndef UL_IO_JSON_H
#define UL_IO_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "num/status.h"

/* ---- limits (the README's certificate section should repeat them) ------- */

/* Largest input accepted, in bytes (1 MiB).  A certificate is a few kB. */
#define UL_JSON_MAX_BYTES ((size_t)1 << 20)
/* Deepest nesting of arrays/objects accepted; the top-level value is at
 * depth 1, so "[[1]]" has depth 2. */
#define UL_JSON_MAX_DEPTH 64
/* Longest number literal accepted, in characters. */
#define UL_JSON_MAX_NUMBER_CHARS 1000
/* Size of a buffer that always holds a path made by ul_json_path_key or
 * ul_json_path_index (longer paths are cut, ending in "..."). */
#define UL_JSON_PATH_MAX 256

/* ---- the document tree ------------------------------------------------- */

typedef enum {
    UL_JSON_NULL,
    UL_JSON_BOOL,
    UL_JSON_NUMBER,
    UL_JSON_STRING,
    UL_JSON_ARRAY,
    UL_JSON_OBJECT,
} ul_json_type;

/* A value in a parsed document.  Read-only; owned by its document and valid
 * until ul_json_free. */
typedef struct ul_json_value ul_json_value;
struct ul_json_value {
    ul_json_type type;
    bool boolean;     /* UL_JSON_BOOL */
    const char *text; /* UL_JSON_NUMBER: the literal exactly as written ("0.10", "1e-400");
                       * UL_JSON_STRING: the decoded UTF-8 text (NUL-terminated; never
                       * contains NUL, since \u0000 is rejected); otherwise NULL */
    size_t text_len;  /* bytes in text */
    size_t count;     /* UL_JSON_ARRAY / UL_JSON_OBJECT: number of elements / members */
    const ul_json_value *const *items; /* the elements / members in document order */
    const char *key;             /* for a member of an object: its key (decoded); otherwise NULL */
    size_t line, column, offset; /* where the value starts: 1-based line, 1-based column
                                  * counted in bytes, 0-based byte offset */
};

typedef struct ul_json_doc ul_json_doc;

/* Parses text[0..len) (need not be NUL-terminated) as one JSON value.  On
 * success *out is a new document (free with ul_json_free).  On failure *out
 * is NULL and err holds e.g.
 *   "$.parameters.sigma: line 3, column 14 (byte 52): NaN is not JSON; numbers must be finite
 * decimals" Status UL_EINPUT for every input problem. */
ul_status ul_json_parse(const char *text, size_t len, ul_json_doc **out, char *err, size_t errlen);

/* Reads and parses a file.  Refuses, with a message naming the file: a file
 * that cannot be opened (the system's reason), a directory or other
 * non-regular file, an empty file, a file larger than UL_JSON_MAX_BYTES (read
 * no further than the limit, so a huge file costs nothing). */
ul_status ul_json_parse_file(const char *path, ul_json_doc **out, char *err, size_t errlen);

void ul_json_free(ul_json_doc *doc);

const ul_json_value *ul_json_root(const ul_json_doc *doc);

/* The member of an object with this key, or NULL (also when obj is NULL or
 * not an object).  Keys are unique: the reader rejects duplicates. */
const ul_json_value *ul_json_get(const ul_json_value *obj, const char *key);

/* "null", "a boolean", "a number", "a string", "an array", "an object". */
const char *ul_json_type_name(ul_json_type type);

/* ---- JSON paths ("$", "$.parameters.sigma", "$.stated.deltas[3]") -------
 * A key that is an identifier ([A-Za-z_][A-Za-z0-9_-]*) is written ".key";
 * any other key as ["key"] with \" \\ and control characters escaped.  Long
 * keys and paths are cut with "...": out always holds a NUL-terminated string
 * of at most outlen - 1 bytes (outlen ≥ 1; UL_JSON_PATH_MAX is enough). */
void ul_json_path_key(char *out, size_t outlen, const char *parent, const char *key);
void ul_json_path_index(char *out, size_t outlen, const char *parent, size_t index);

#endif
