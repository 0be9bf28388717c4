/* src/lib/examples/hello.c — a program against the installed libulaudit:
 *   cc hello.c $(pkg-config --cflags --libs ulaudit) -o hello
 * `make test-install` builds it against a DESTDIR install and runs it.
 * It checks what it prints against independent facts: theta_{e^0}(r) is
 * the total variation 2*Phi(r/2) - 1 (Balle & Wang 2018, eq. (5) at eps = 0),
 * erf(0.25/sqrt 2) = 0.19741265136584743 at r = 0.5 (C's erf, within an ulp),
 * and a malformed input is an error naming the flag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ulaudit.h>

int main(void)
{
    char err[1024], *lo, *hi;
    ulaudit_options opt = {20, 0};
    if (ulaudit_theta("0", "0.5", &opt, &lo, &hi, err, sizeof err) != ULAUDIT_OK) {
        fprintf(stderr, "hello: %s\n", err);
        return 1;
    }
    printf("libulaudit %s (header %s): theta_1(0.5) in [%s, %s]\n", ulaudit_version(),
           ULAUDIT_VERSION_STRING, lo, hi);
    int ok = strtod(lo, NULL) <= 0.1974126513658475 && strtod(hi, NULL) >= 0.1974126513658474;
    ulaudit_free(lo);
    ulaudit_free(hi);
    if (ulaudit_theta("1", "-2", NULL, &lo, &hi, err, sizeof err) != ULAUDIT_EINPUT ||
        strstr(err, "r") == NULL || lo != NULL)
        ok = 0;
    printf("bad input: %s\n", err);
    ulaudit_thread_cleanup();
    return ok ? 0 : 1;
}
