/* src/io/file.h — files in and out: opening a file to read (regular files
 * only, never blocking on a FIFO) and the one atomic file writer that every
 * file ulaudit writes goes through (certificates completed by calibrate,
 * reports, model files, pictures, shard heads, reference vectors).
 *
 * Library rules: never exits, never prints; UL_EINPUT with one line in
 * (err, errlen) starting with the file name.
 */
#ifndef UL_IO_FILE_H
#define UL_IO_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "num/status.h"

/* ---- reading --------------------------------------------------------------
 * Opens path for reading, refusing anything but a regular file before a
 * byte is read: the open does not block on a FIFO (O_NONBLOCK, cleared once
 * the file is known to be regular).  Refusals name the file and the rule:
 *   "<path>: cannot open: <system reason>"
 *   "<path>: is a directory, not a <what>"
 *   "<path>: not a regular file (device, pipe or socket); give a <what>"
 *   "<path>: empty file"                (unless allow_empty)
 * what names the file expected ("JSON file", "data file").  On success *fd
 * (close it) and *size (bytes when opened). */
ul_status ul_io_open_regular(const char *path, const char *what, bool allow_empty, int *fd,
                             long long *size, char *err, size_t errlen);

/* The same as a stream (binary mode). */
ul_status ul_io_fopen_regular(const char *path, const char *what, bool allow_empty, FILE **fp,
                              long long *size, char *err, size_t errlen);

/* ---- writing --------------------------------------------------------------
 * Writes path atomically: a temporary file ".<name>.tmp.<pid>.<n>" in the
 * same directory (created with mode 0666 less the umask), filled by
 * fill(f, ctx), flushed and fsync'd, then renamed over path; the directory
 * is then fsync'd (best effort).  fill returns NULL, or a short reason
 * ("cairo: out of memory") that becomes the message "<path>: <reason>".
 * mode ≥ 0 sets the file's permissions exactly (fchmod); −1 leaves 0666 less
 * the umask.  On any failure UL_EINPUT with the reason, the temporary file
 * is removed and path is untouched: either the old file or the complete new
 * one, never a partial one. */
typedef const char *(*ul_io_fill)(FILE *f, void *ctx);
ul_status ul_io_write_atomic(const char *path, ul_io_fill fill, void *ctx, int mode, char *err,
                             size_t errlen);

/* The same for data[0..len) (a wrapper over ul_io_write_atomic). */
ul_status ul_io_write_atomic_bytes(const char *path, const void *data, size_t len, char *err,
                                   size_t errlen);

#endif
