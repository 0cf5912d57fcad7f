// Early writeback of a file being downloaded, so the fsync before its rename has little left to do.
#ifndef CWRITEBACK_H
#define CWRITEBACK_H

/// Starts writing the dirty pages of `fd` in [offset, offset + length) to disk without waiting for them
/// (Linux `sync_file_range` with SYNC_FILE_RANGE_WRITE). Elsewhere it does nothing. Returns 0 or -1 (errno set).
int podarchive_start_writeback(int fd, long long offset, long long length);

/// Writes every dirty page of the file system `fd` is on to disk, and waits (Linux `syncfs`, which also needs
/// _GNU_SOURCE); elsewhere fsync of `fd`. Returns 0 or -1 (errno set).
int podarchive_sync_file_system(int fd);

#endif
