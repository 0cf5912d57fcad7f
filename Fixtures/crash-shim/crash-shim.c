// The crash library the tests preload into the built podarchive (see Tests/TestSupport/CrashShim.swift): counts
// each write, pwrite, writev, fsync, fdatasync, ftruncate, rename, link and unlink that touches the folder named by
// PODARCHIVE_SHIM_UNDER, across all threads, and kills the process with SIGKILL just before the one numbered
// PODARCHIVE_SHIM_KILL_AT. Only a process whose executable is named podarchive counts (a hook it runs inherits the
// variables and is left alone).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long target = -1;
static const char *under;
static size_t under_length;
static long counter;
static int active;

__attribute__((constructor)) static void shim_start(void) {
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0) return;
    exe[length] = 0;
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (strcmp(base, "podarchive") != 0) return;
    under = getenv("PODARCHIVE_SHIM_UNDER");
    if (!under) return;
    under_length = strlen(under);
    const char *at = getenv("PODARCHIVE_SHIM_KILL_AT");
    if (at) target = atol(at);
    active = 1;
}

static int is_under(const char *path) {
    return path && strncmp(path, under, under_length) == 0;
}

static int path_under(int dirfd, const char *path) {
    if (!path) return 0;
    if (path[0] == '/') return is_under(path);
    char base[4096];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) return 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t length = readlink(link, base, sizeof base - 1);
        if (length <= 0) return 0;
        base[length] = 0;
    }
    return is_under(base);
}

static int fd_under(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = 0;
    return is_under(path);
}

static void step(int relevant) {
    if (!active || !relevant) return;
    long n = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    if (n == target) kill(getpid(), SIGKILL);
}

#define NEXT(name) static __typeof__(name) *real; if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buffer, size_t count) { NEXT(write); if (active) step(fd_under(fd)); return real(fd, buffer, count); }
ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) { NEXT(pwrite); if (active) step(fd_under(fd)); return real(fd, buffer, count, offset); }
ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) { NEXT(pwrite64); if (active) step(fd_under(fd)); return real(fd, buffer, count, offset); }
ssize_t writev(int fd, const struct iovec *vector, int count) { NEXT(writev); if (active) step(fd_under(fd)); return real(fd, vector, count); }
int fsync(int fd) { NEXT(fsync); if (active) step(fd_under(fd)); return real(fd); }
int fdatasync(int fd) { NEXT(fdatasync); if (active) step(fd_under(fd)); return real(fd); }
int ftruncate(int fd, off_t length) { NEXT(ftruncate); if (active) step(fd_under(fd)); return real(fd, length); }
int rename(const char *from, const char *to) { NEXT(rename); if (active) step(path_under(AT_FDCWD, to)); return real(from, to); }
int renameat(int fromfd, const char *from, int tofd, const char *to) { NEXT(renameat); if (active) step(path_under(tofd, to)); return real(fromfd, from, tofd, to); }
int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) { NEXT(renameat2); if (active) step(path_under(tofd, to)); return real(fromfd, from, tofd, to, flags); }
int link(const char *from, const char *to) { NEXT(link); if (active) step(path_under(AT_FDCWD, to)); return real(from, to); }
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) { NEXT(linkat); if (active) step(path_under(tofd, to)); return real(fromfd, from, tofd, to, flags); }
int unlink(const char *path) { NEXT(unlink); if (active) step(path_under(AT_FDCWD, path)); return real(path); }
int unlinkat(int dirfd, const char *path, int flags) { NEXT(unlinkat); if (active) step(path_under(dirfd, path)); return real(dirfd, path, flags); }
int remove(const char *path) { NEXT(remove); if (active) step(path_under(AT_FDCWD, path)); return real(path); }
int rmdir(const char *path) { NEXT(rmdir); if (active) step(path_under(AT_FDCWD, path)); return real(path); }
