// sync_file_range needs _GNU_SOURCE, which Swift's Glibc module does not define: hence this file.
#define _GNU_SOURCE
#include <fcntl.h>
#include "cwriteback.h"

int podarchive_start_writeback(int fd, long long offset, long long length) {
#ifdef __linux__
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
#endif
}

#include <unistd.h>

int podarchive_sync_file_system(int fd) {
#ifdef __linux__
    return syncfs(fd);
#else
    return fsync(fd);
#endif
}
