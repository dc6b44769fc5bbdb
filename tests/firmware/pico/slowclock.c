/* LD_PRELOAD beside libfaketime for a daemon whose clock runs at the emulated Pico's pace
 * (FAKETIME="+0 xSPEED", tests/firmware/pico/FACTS.md 8). libfaketime 0.9.10 does not intercept
 * sem_clockwait, which CPython 3.10+ uses for every lock with a timeout (Event.wait, queue.get):
 * their absolute deadlines are on the faked clock, so the real call would return at once or wait
 * far too long. This turns the deadline into the time left on the faked clock, scales it by
 * 1/SPEED and waits that long on the real clock. Built by pico.py with the machine's gcc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double speed(void) {
    const char *faketime = getenv("FAKETIME");
    const char *x = faketime ? strchr(faketime, 'x') : NULL;
    double value = x ? atof(x + 1) : 1.0;
    return value > 0 ? value : 1.0;
}

int sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *deadline) {
    static int (*real)(sem_t *, clockid_t, const struct timespec *);
    struct timespec faked, now, until;
    double left, at;
    if (!real) real = (int (*)(sem_t *, clockid_t, const struct timespec *))dlsym(RTLD_NEXT, "sem_clockwait");
    clock_gettime(clock, &faked);                  /* libfaketime's clock */
    syscall(SYS_clock_gettime, clock, &now);       /* the kernel's */
    left = (double)(deadline->tv_sec - faked.tv_sec) + (deadline->tv_nsec - faked.tv_nsec) / 1e9;
    at = (double)now.tv_sec + now.tv_nsec / 1e9 + (left > 0 ? left / speed() : 0);
    until.tv_sec = (time_t)at;
    until.tv_nsec = (long)((at - (double)until.tv_sec) * 1e9);
    return real(sem, clock, &until);
}
