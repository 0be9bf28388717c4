/* tests/test_io.c — io/file.h: ul_io_open_regular and the readers built on
 * it refuse what is not a regular file before reading, and never block on a
 * FIFO.  The oracle is the file system itself: each fixture is made with
 * mkfifo / mkdir / fwrite and checked with stat(2) before the reader sees it.
 * (The atomic writer's tests are in test_cert.c, where it was first written.)
 *
 * A FIFO with no writer blocks open(O_RDONLY) forever (POSIX, open(2)):
 * a reader that opened it before checking would hang these tests. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emp/attack.h"
#include "emp/data.h"
#include "emp/modelio.h"
#include "io/file.h"
#include "io/json.h"

static char dir[64];
static char fifo[128];

static void setup(void)
{
    strcpy(dir, "/tmp/ulaudit-io-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    struct stat st;
    cr_assert_eq(stat(fifo, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the fixture is not a FIFO");
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(io, .init = setup, .fini = teardown);

static void expect_refusal(ul_status st, const char *err, const char *path, const char *what)
{
    cr_assert_eq(st, UL_EINPUT, "accepted %s", path);
    cr_assert(strstr(err, path) != NULL, "the message does not name the file: %s", err);
    cr_assert(strstr(err, what) != NULL, "the message lacks '%s': %s", what, err);
}

Test(io, open_regular_refuses_a_fifo_without_blocking)
{
    char err[512];
    int fd = 7;
    long long size = -1;
    ul_status st = ul_io_open_regular(fifo, "data file", true, &fd, &size, err, sizeof err);
    expect_refusal(st, err, fifo, "not a regular file (device, pipe or socket); give a data file");
    cr_assert_eq(fd, -1);
}

Test(io, every_reader_refuses_a_fifo)
{
    char err[512];
    ul_dataset ds = {0};
    expect_refusal(ul_data_read_csv(fifo, 0, 0, &ds, err, sizeof err), err, fifo, "pipe");
    expect_refusal(ul_data_read_idx(fifo, fifo, &ds, err, sizeof err), err, fifo, "pipe");
    ul_model_set ms = {0};
    expect_refusal(ul_modelio_read(fifo, UL_MODELIO_AUTO, 0, &ms, err, sizeof err), err, fifo,
                   "pipe");
    ul_json_doc *doc = NULL;
    expect_refusal(ul_json_parse_file(fifo, &doc, err, sizeof err), err, fifo, "pipe");
    cr_assert_null(doc);
    ul_attack_config cfg;
    expect_refusal(ul_attack_config_load(fifo, &cfg, err, sizeof err), err, fifo, "pipe");
}

Test(io, open_regular_directory_empty_and_missing)
{
    char err[512], path[160];
    int fd;
    long long size;
    expect_refusal(ul_io_open_regular(dir, "model file", false, &fd, &size, err, sizeof err), err,
                   dir, "is a directory, not a model file");
    snprintf(path, sizeof path, "%s/empty", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fclose(f);
    expect_refusal(ul_io_open_regular(path, "data file", false, &fd, &size, err, sizeof err), err,
                   path, "empty file");
    cr_assert_eq(ul_io_open_regular(path, "JSON file", true, &fd, &size, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(size, 0);
    close(fd);
    snprintf(path, sizeof path, "%s/missing", dir);
    expect_refusal(ul_io_open_regular(path, "data file", true, &fd, &size, err, sizeof err), err,
                   path, "cannot open: No such file or directory");
}

/* A regular file opens with its size as written and a blocking descriptor. */
Test(io, open_regular_gives_size_and_a_blocking_fd)
{
    char err[512], path[160];
    snprintf(path, sizeof path, "%s/seven", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite("1234567", 1, 7, f), 7u);
    fclose(f);
    int fd;
    long long size;
    cr_assert_eq(ul_io_open_regular(path, "data file", false, &fd, &size, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(size, 7);
    cr_assert_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0, "O_NONBLOCK left set");
    char buf[8];
    cr_assert_eq(read(fd, buf, sizeof buf), 7);
    close(fd);
    FILE *g;
    cr_assert_eq(ul_io_fopen_regular(path, "data file", false, &g, &size, err, sizeof err), UL_OK,
                 "%s", err);
    cr_assert_eq(fgetc(g), '1');
    fclose(g);
}
