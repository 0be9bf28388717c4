/* tests/memlimit.c — see memlimit.h. */
#include "memlimit.h"

#include <stdio.h>
#include <unistd.h>

size_t memlimit_mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0; /* the first field counts pages */
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}
