/* tests/test_emp_files.h — file helpers shared by the empirical module's
 * tests (plain C file I/O, independent of the code under test). */
#ifndef UL_TESTS_EMP_FILES_H
#define UL_TESTS_EMP_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* The whole file (malloc'd, one spare byte); *len = its size. */
unsigned char *emp_test_read(const char *path, size_t *len);
/* Writes bytes[0..len) to path (created or truncated). */
void emp_test_write(const char *path, const void *bytes, size_t len);
/* A fresh directory under /tmp (malloc'd name); removed with its content
 * by emp_test_rm_rf. */
char *emp_test_mkdtemp(void);
void emp_test_rm_rf(const char *dir);
/* dir/name written with bytes[0..len); returns the path (static storage,
 * 8 in rotation). */
const char *emp_test_put(const char *dir, const char *name, const void *bytes, size_t len);
/* A process id that has just exited and been reaped: no process has it. */
pid_t emp_test_dead_pid(void);

#endif
