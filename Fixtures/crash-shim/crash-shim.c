// The crash library preloaded (LD_PRELOAD) into the built podarchive by the crash tests and the crash matrix (see
// Tests/TestSupport/CrashShim.swift and Tests/CrashMatrix/crash-matrix.py); test-only, never part of podarchive.
// It counts each call that changes a file under $PODARCHIVE_SHIM_UNDER (write, pwrite, writev, ftruncate, fsync,
// fdatasync, rename, link, symlink, unlink, rmdir, remove, and the dates and extended attributes set) across all
// threads, in the order they happen, and kills the process with SIGKILL just before the one numbered
// $PODARCHIVE_SHIM_KILL_AT, so that call never happens (unset or 0: it only counts). $PODARCHIVE_SHIM_LOG names a
// file that gets one line per counted call ("N op path"), written with the raw system call so that the log is
// never itself counted. Only a process whose executable is named podarchive counts: a hook it runs inherits the
// variables and is left alone. (strace's `inject` counts per thread, so it would skip points of a multi-threaded
// binary.)
//
// Calls are counted only on regular files and folders under the folder: the sockets, pipes and eventfds of libcurl
// and libdispatch, and the terminal, are not points where a crash can tear anything. Calls inside glibc (stdio's own
// write) do not pass through the PLT and are not seen; podarchive's writes to its files all do.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

static atomic_long counted;
static long kill_at = -1;
static char root[PATH_MAX];
static size_t root_length;
static int log_fd = -1;
static atomic_int ready;

__attribute__((constructor)) static void start(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return;
    executable[length] = '\0';
    const char *base = strrchr(executable, '/');
    if (strcmp(base ? base + 1 : executable, "podarchive") != 0) return;
    const char *at = getenv("PODARCHIVE_SHIM_KILL_AT");
    kill_at = at ? atol(at) : 0;
    const char *given = getenv("PODARCHIVE_SHIM_UNDER");
    if (given && realpath(given, root)) root_length = strlen(root);
    if (root_length == 1) root_length = 0;  // "/" would count every call: refused.
    const char *log = getenv("PODARCHIVE_SHIM_LOG");
    if (log) log_fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    atomic_store(&ready, 1);
}

static int under_root(const char *path) {
    return root_length > 0 && strncmp(path, root, root_length) == 0
        && (path[root_length] == '/' || path[root_length] == '\0');
}

// The absolute path of `path` taken relative to the folder `dirfd` (its parent folder resolved; the last
// component itself may not exist yet, or may be a link that must not be followed).
static int resolve_at(int dirfd, const char *path, char *out) {
    char joined[PATH_MAX * 2];
    if (path[0] == '/') {
        snprintf(joined, sizeof joined, "%s", path);
    } else {
        char base[PATH_MAX];
        if (dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return 0;
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            ssize_t length = readlink(link, base, sizeof base - 1);
            if (length <= 0) return 0;
            base[length] = '\0';
        }
        snprintf(joined, sizeof joined, "%s/%s", base, path);
    }
    char *slash = strrchr(joined, '/');
    if (!slash) return 0;
    *slash = '\0';
    char parent[PATH_MAX];
    if (!realpath(joined[0] ? joined : "/", parent)) return 0;
    snprintf(out, PATH_MAX, "%s/%s", parent, slash + 1);
    return 1;
}

static int fd_path(int fd, char *out) {
    struct stat status;
    if (fstat(fd, &status) != 0 || !(S_ISREG(status.st_mode) || S_ISDIR(status.st_mode))) return 0;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, out, PATH_MAX - 1);
    if (length <= 0) return 0;
    out[length] = '\0';
    return 1;
}

// Counts one call on `path`; kills the process first when it is the one asked for.
static void point(const char *op, const char *path) {
    if (!atomic_load(&ready) || !under_root(path)) return;
    long number = atomic_fetch_add(&counted, 1) + 1;
    if (log_fd >= 0) {
        char line[PATH_MAX + 64];
        int length = snprintf(line, sizeof line, "%ld %s %s\n", number, op, path + root_length);
        if (length > 0) syscall(SYS_write, log_fd, line, (size_t)length);
    }
    if (number == kill_at) {
        syscall(SYS_kill, getpid(), SIGKILL);
        for (;;) pause();
    }
}

static void fd_point(const char *op, int fd) {
    char path[PATH_MAX];
    if (atomic_load(&ready) && root_length > 0 && fd_path(fd, path)) point(op, path);
}

static void path_point(const char *op, int dirfd, const char *path) {
    char absolute[PATH_MAX];
    if (atomic_load(&ready) && root_length > 0 && path && resolve_at(dirfd, path, absolute)) point(op, absolute);
}

#define NEXT(name) static __typeof__(name) *next_##name; if (!next_##name) next_##name = dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buffer, size_t count) {
    NEXT(write);
    fd_point("write", fd);
    return next_write(fd, buffer, count);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    NEXT(pwrite);
    fd_point("pwrite", fd);
    return next_pwrite(fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
    NEXT(pwrite64);
    fd_point("pwrite", fd);
    return next_pwrite64(fd, buffer, count, offset);
}

ssize_t writev(int fd, const struct iovec *vector, int count) {
    NEXT(writev);
    fd_point("writev", fd);
    return next_writev(fd, vector, count);
}

int ftruncate(int fd, off_t length) {
    NEXT(ftruncate);
    fd_point("ftruncate", fd);
    return next_ftruncate(fd, length);
}

int fsync(int fd) {
    NEXT(fsync);
    fd_point("fsync", fd);
    return next_fsync(fd);
}

int fdatasync(int fd) {
    NEXT(fdatasync);
    fd_point("fdatasync", fd);
    return next_fdatasync(fd);
}

int rename(const char *from, const char *to) {
    NEXT(rename);
    path_point("rename", AT_FDCWD, to);
    return next_rename(from, to);
}

int renameat(int fromdir, const char *from, int todir, const char *to) {
    NEXT(renameat);
    path_point("rename", todir, to);
    return next_renameat(fromdir, from, todir, to);
}

int renameat2(int fromdir, const char *from, int todir, const char *to, unsigned int flags) {
    NEXT(renameat2);
    path_point("rename", todir, to);
    return next_renameat2(fromdir, from, todir, to, flags);
}

int unlink(const char *path) {
    NEXT(unlink);
    path_point("unlink", AT_FDCWD, path);
    return next_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
    NEXT(unlinkat);
    path_point("unlink", dirfd, path);
    return next_unlinkat(dirfd, path, flags);
}

int remove(const char *path) {
    NEXT(remove);
    path_point("unlink", AT_FDCWD, path);
    return next_remove(path);
}

int rmdir(const char *path) {
    NEXT(rmdir);
    path_point("rmdir", AT_FDCWD, path);
    return next_rmdir(path);
}

int link(const char *from, const char *to) {
    NEXT(link);
    path_point("link", AT_FDCWD, to);
    return next_link(from, to);
}

int linkat(int fromdir, const char *from, int todir, const char *to, int flags) {
    NEXT(linkat);
    path_point("link", todir, to);
    return next_linkat(fromdir, from, todir, to, flags);
}

int symlink(const char *target, const char *path) {
    NEXT(symlink);
    path_point("symlink", AT_FDCWD, path);
    return next_symlink(target, path);
}

int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags) {
    NEXT(utimensat);
    path_point("utimens", dirfd, path);
    return next_utimensat(dirfd, path, times, flags);
}

int futimens(int fd, const struct timespec times[2]) {
    NEXT(futimens);
    fd_point("utimens", fd);
    return next_futimens(fd, times);
}

int setxattr(const char *path, const char *name, const void *value, size_t size, int flags) {
    NEXT(setxattr);
    path_point("setxattr", AT_FDCWD, path);
    return next_setxattr(path, name, value, size, flags);
}

int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags) {
    NEXT(fsetxattr);
    fd_point("setxattr", fd);
    return next_fsetxattr(fd, name, value, size, flags);
}

int utimes(const char *path, const struct timeval times[2]) {
    NEXT(utimes);
    path_point("utimes", AT_FDCWD, path);
    return next_utimes(path, times);
}

int lutimes(const char *path, const struct timeval times[2]) {
    NEXT(lutimes);
    path_point("utimes", AT_FDCWD, path);
    return next_lutimes(path, times);
}
