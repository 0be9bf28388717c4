/* src/cli/watchdog.c — the command line's backstop of --max-seconds
 * (watchdog.h): one thread, one mutex.
 *
 * The mutex decides who writes.  The watchdog thread waits on a condition
 * until the budget plus UL_WATCHDOG_GRACE; it fires only if it then holds
 * the mutex and finds the computation unclaimed, and it keeps the mutex
 * until _exit, so a claim, a hold or a stop that comes later blocks for the
 * few microseconds the process has left.  Firing: park the thread that
 * started the watchdog (a signal whose handler never returns), remove that
 * process's temporary files from the registered directory, write the
 * prepared texts with write(2), _exit(3).  Nothing on that path allocates
 * or takes a lock the parked thread could hold (stdio, malloc): the texts
 * are prepared at start, the directory is listed with getdents64 into a
 * buffer on the stack.
 */
#define _GNU_SOURCE /* getdents64 and struct dirent64 (glibc >= 2.30) */

#include "cli/watchdog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/exitcodes.h"

/* The signal that parks the computing thread: its handler is installed
 * only when the watchdog fires, so the signal means nothing otherwise. */
#define PARK_SIGNAL SIGUSR2

/* How long the watchdog waits for the computing thread to park (it parks
 * as soon as it next runs in user space: at once, unless it is inside a
 * system call that cannot be interrupted). */
#define PARK_WAIT_SECONDS 1

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* on CLOCK_MONOTONIC */
    bool started;      /* read and written by the computing thread only */
    bool finished;     /* under mu: the computation has claimed the output */
    struct timespec until;
    pthread_t thread, worker;
    const char *out_text; /* for stdout, or NULL */
    char message[512];    /* for stderr, or "" */
    char *clean_dir;      /* malloc'd, or NULL */
    char tmp_mark[40];    /* ".tmp.<pid>." of ul_io_write_atomic's names */
    sem_t parked;
} wd = {.mu = PTHREAD_MUTEX_INITIALIZER};

void ul_watchdog_message(char *buf, size_t len, const char *command, double seconds,
                         const char *tail)
{
    snprintf(buf, len,
             "ulaudit %s: the time budget of %g s ran out in a step that does not check it; "
             "stopped %g s later (%s; --max-seconds S sets it, 0 for none)\n",
             command, seconds, UL_WATCHDOG_GRACE, tail);
}

static void write_all(int fd, const char *text)
{
    size_t n = text != NULL ? strlen(text) : 0, done = 0;
    while (done < n) {
        ssize_t k = write(fd, text + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        done += (size_t)k;
    }
}

/* The handler of PARK_SIGNAL, on the computing thread: it says so and
 * never returns (sem_post and pause are async-signal-safe). */
static void park(int sig)
{
    (void)sig;
    sem_post(&wd.parked);
    for (;;)
        pause();
}

/* Stops the computing thread where it is: after this it creates no file
 * and writes nothing. */
static void park_worker(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = park;
    sigemptyset(&sa.sa_mask);
    if (sigaction(PARK_SIGNAL, &sa, NULL) != 0 || pthread_kill(wd.worker, PARK_SIGNAL) != 0)
        return;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += PARK_WAIT_SECONDS;
    while (sem_timedwait(&wd.parked, &t) != 0 && errno == EINTR)
        ;
}

/* Whether name is a temporary file of ul_io_write_atomic made by this
 * process: ".<base>.tmp.<pid>.<n>" (io/file.h), n in decimal. */
static bool own_temporary(const char *name)
{
    const char *mark = name[0] == '.' ? strstr(name, wd.tmp_mark) : NULL;
    if (mark == NULL)
        return false;
    const char *n = mark + strlen(wd.tmp_mark);
    if (*n == '\0')
        return false;
    for (; *n != '\0'; n++)
        if (*n < '0' || *n > '9')
            return false;
    return true;
}

/* Removes this process's temporary files from the registered directory. */
static void remove_temporaries(void)
{
    if (wd.clean_dir == NULL)
        return;
    int fd = open(wd.clean_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return; /* no directory yet: no file in it either */
    union {
        char bytes[8192];
        struct dirent64 align;
    } buf;
    ssize_t n;
    while ((n = getdents64(fd, buf.bytes, sizeof buf.bytes)) > 0)
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *e = (const struct dirent64 *)(buf.bytes + off);
            if (own_temporary(e->d_name))
                (void)unlinkat(fd, e->d_name, 0);
            off += e->d_reclen;
        }
    close(fd);
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd.mu);
    while (!wd.finished)
        if (pthread_cond_timedwait(&wd.cv, &wd.mu, &wd.until) == ETIMEDOUT)
            break;
    if (wd.finished) {
        pthread_mutex_unlock(&wd.mu);
        return NULL;
    }
    /* the mutex stays held: the computation never prints after this */
    park_worker();
    remove_temporaries();
    write_all(STDOUT_FILENO, wd.out_text);
    write_all(STDERR_FILENO, wd.message);
    _exit(UL_EXIT_INCONCLUSIVE);
}

/* now + seconds on CLOCK_MONOTONIC. */
static struct timespec monotonic_after(double seconds)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double whole = (double)(time_t)seconds;
    t.tv_sec += (time_t)whole;
    t.tv_nsec += (long)((seconds - whole) * 1e9);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec += 1;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

void ul_watchdog_start(const char *command, double seconds, const char *out_text, const char *tail)
{
    if (!(seconds > 0) || wd.started)
        return;
    wd.finished = false;
    wd.out_text = out_text;
    wd.message[0] = '\0';
    if (tail != NULL)
        ul_watchdog_message(wd.message, sizeof wd.message, command, seconds, tail);
    snprintf(wd.tmp_mark, sizeof wd.tmp_mark, ".tmp.%ld.", (long)getpid());
    sem_init(&wd.parked, 0, 0);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wd.cv, &ca);
    pthread_condattr_destroy(&ca);
    wd.until = monotonic_after(seconds + UL_WATCHDOG_GRACE);
    wd.worker = pthread_self();
    sigset_t park_set; /* a mask inherited across exec must not keep it from parking */
    sigemptyset(&park_set);
    sigaddset(&park_set, PARK_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &park_set, NULL);
    /* without the thread only the cooperative budget is left, as before */
    wd.started = pthread_create(&wd.thread, NULL, watchdog_main, NULL) == 0;
    if (!wd.started) {
        pthread_cond_destroy(&wd.cv);
        sem_destroy(&wd.parked);
    }
}

void ul_watchdog_clean_dir(const char *dir)
{
    free(wd.clean_dir);
    wd.clean_dir = strdup(dir);
    if (wd.clean_dir == NULL)
        abort();
}

void ul_watchdog_claim(void)
{
    if (!wd.started)
        return;
    pthread_mutex_lock(&wd.mu);
    wd.finished = true;
    pthread_cond_signal(&wd.cv);
    pthread_mutex_unlock(&wd.mu);
}

void ul_watchdog_hold(void)
{
    if (wd.started)
        pthread_mutex_lock(&wd.mu);
}

void ul_watchdog_release(void)
{
    if (wd.started)
        pthread_mutex_unlock(&wd.mu);
}

void ul_watchdog_stop(void)
{
    if (wd.started) {
        ul_watchdog_claim();
        pthread_join(wd.thread, NULL);
        pthread_cond_destroy(&wd.cv);
        sem_destroy(&wd.parked);
        wd.started = false;
    }
    free(wd.clean_dir);
    wd.clean_dir = NULL;
}
