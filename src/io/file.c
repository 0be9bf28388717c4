/* src/io/file.c — opening a file to read (regular files only) and the one
 * atomic file writer (see file.h). */
#include "io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/escape.h"

/* ---- reading ------------------------------------------------------------- */

/* Why st (of a file opened to read) is refused, into why; false if it is not. */
static bool refused(const struct stat *st, const char *what, bool allow_empty, char *why,
                    size_t whylen)
{
    if (S_ISDIR(st->st_mode))
        snprintf(why, whylen, "is a directory, not a %s", what);
    else if (!S_ISREG(st->st_mode))
        snprintf(why, whylen, "not a regular file (device, pipe or socket); give a %s", what);
    else if (st->st_size == 0 && !allow_empty)
        snprintf(why, whylen, "empty file");
    else
        return false;
    return true;
}

static ul_status open_regular(const char *path, const char *what, bool allow_empty, int *fd,
                             long long *size, char *err, size_t errlen)
{
    *fd = -1;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
     * below, before anything is read). */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (f < 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    char why[160];
    ul_status s = UL_OK;
    if (fstat(f, &st) != 0)
        s = ul_fail(err, errlen, UL_EINPUT, "%s: cannot stat: %s", path, strerror(errno));
    else if (refused(&st, what, allow_empty, why, sizeof why))
        s = ul_fail(err, errlen, UL_EINPUT, "%s: %s", path, why);
    /* a regular file: reads block as usual */
    else if (fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK) != 0)
        s = ul_fail(err, errlen, UL_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    if (s != UL_OK) {
        close(f);
        return s;
    }
    *fd = f;
    *size = (long long)st.st_size;
    return UL_OK;
}

/* The messages quote the path: escaped (io/escape.h), so a file name holding
 * a terminal control never reaches a terminal raw. */
ul_status ul_io_open_regular(const char *path, const char *what, bool allow_empty, int *fd,
                             long long *size, char *err, size_t errlen)
{
    return ul_io_escaped(open_regular(path, what, allow_empty, fd, size, err, errlen), err, errlen);
}

ul_status ul_io_fopen_regular(const char *path, const char *what, bool allow_empty, FILE **fp,
                              long long *size, char *err, size_t errlen)
{
    *fp = NULL;
    int fd;
    ul_status st = ul_io_open_regular(path, what, allow_empty, &fd, size, err, errlen);
    if (st != UL_OK)
        return st;
    if ((*fp = fdopen(fd, "rb")) == NULL) {
        int e = errno;
        close(fd);
        return ul_io_escaped(ul_fail(err, errlen, UL_EINPUT, "%s: cannot open: %s", path,
                                     strerror(e)),
                             err, errlen);
    }
    return UL_OK;
}

/* ---- atomic writing -------------------------------------------------------- */

static ul_status write_atomic(const char *path, ul_io_fill fill, void *ctx, int mode, char *err,
                               size_t errlen)
{
    static _Atomic unsigned counter;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return ul_fail(err, errlen, UL_EINPUT, "%s: not a file name", path);
    size_t dir_len = slash == NULL ? 1 : slash == path ? 1 : (size_t)(slash - path);
    size_t cap = strlen(path) + 64;
    char *dir = malloc(dir_len + 1), *tmp = malloc(cap);
    if (dir == NULL || tmp == NULL) {
        free(dir);
        free(tmp);
        return ul_fail(err, errlen, UL_ENOMEM, "%s: out of memory", path);
    }
    memcpy(dir, slash == NULL ? "." : slash == path ? "/" : path, dir_len);
    dir[dir_len] = '\0';

    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        /* "<dir>/.<base>.tmp.<pid>.<n>": same directory, so rename is atomic */
        snprintf(tmp, cap, "%.*s.%s.tmp.%ld.%u", (int)(base - path), path, base, (long)getpid(),
                 counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    ul_status st = UL_OK;
    if (fd < 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot create a temporary file in %s: %s", path,
                     dir, strerror(errno));
        goto done;
    }
    FILE *f = fdopen(fd, "wb");
    const char *reason = NULL;
    if (f == NULL) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot open the temporary file: %s", path,
                     strerror(errno));
        close(fd);
    } else if (mode >= 0 && fchmod(fd, (mode_t)mode) != 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot set the file's mode: %s", path,
                     strerror(errno));
    } else if ((reason = fill(f, ctx)) != NULL) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: %s", path, reason);
    } else if (fflush(f) != 0 || ferror(f)) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: write failed: %s", path, strerror(errno));
    } else if (fsync(fd) != 0) {
        st = ul_fail(err, errlen, UL_EINPUT, "%s: fsync failed: %s", path, strerror(errno));
    }
    if (f != NULL && fclose(f) != 0 && st == UL_OK)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: close failed: %s", path, strerror(errno));
    if (st == UL_OK && rename(tmp, path) != 0)
        st = ul_fail(err, errlen, UL_EINPUT, "%s: cannot replace the file: %s", path,
                     strerror(errno));
    if (st != UL_OK) {
        unlink(tmp);
        goto done;
    }
    /* Make the rename itself durable (best effort: some file systems refuse). */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
done:
    free(dir);
    free(tmp);
    return st;
}

typedef struct {
    const void *data;
    size_t len;
} bytes;

ul_status ul_io_write_atomic(const char *path, ul_io_fill fill, void *ctx, int mode, char *err,
                             size_t errlen)
{
    return ul_io_escaped(write_atomic(path, fill, ctx, mode, err, errlen), err, errlen);
}

static const char *fill_bytes(FILE *f, void *ctx)
{
    const bytes *b = ctx;
    return b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len ? NULL : "write failed";
}

ul_status ul_io_write_atomic_bytes(const char *path, const void *data, size_t len, char *err,
                                   size_t errlen)
{
    bytes b = {data, len};
    return ul_io_write_atomic(path, fill_bytes, &b, -1, err, errlen);
}
