/* tests/memlimit.h — what the tests that set an address-space limit
 * (RLIMIT_AS) share: the bytes the process maps now, and the skip under
 * AddressSanitizer or valgrind, which map memory of their own beside every
 * allocation (and refuse sizes no machine has), so a limit there says
 * nothing about the program. */
#ifndef UL_TESTS_MEMLIMIT_H
#define UL_TESTS_MEMLIMIT_H

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>

/* The address space this process maps now, in bytes (/proc/self/statm). */
size_t memlimit_mapped_bytes(void);

/* Skips the calling test under a sanitizer or valgrind (a macro: the skip
 * ends the test, and __SANITIZE_ADDRESS__ is the test file's own). */
#if defined(__SANITIZE_ADDRESS__)
#define MEMLIMIT_SKIP_UNDER_SANITIZER() cr_skip_test("AddressSanitizer maps shadow memory of its own")
#else
#define MEMLIMIT_SKIP_UNDER_SANITIZER()                                                    \
    do {                                                                                   \
        if (getenv("ASAN_OPTIONS") != NULL || getenv("VALGRIND") != NULL)                  \
            cr_skip_test("a sanitizer or valgrind run");                                   \
    } while (0)
#endif

#endif
