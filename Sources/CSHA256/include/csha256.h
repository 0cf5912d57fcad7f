// SHA-256 and SHA-1 block compression with the x86 SHA extensions (SHA-NI), for podarchive's SHA256 and SHA1.
#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU can run csha256_compress_ni (x86-64 with SHA, SSSE3 and SSE4.1), else 0.
int csha256_has_sha_extensions(void);

/// Compresses `blocks` 64-byte blocks of `data` into `state` (a, b, c, d, e, f, g, h).
/// Call only when csha256_has_sha_extensions() returned 1.
void csha256_compress_ni(uint32_t state[8], const uint8_t *data, size_t blocks);

/// Compresses `blocks` 64-byte blocks of `data` into the SHA-1 `state` (h0 to h4).
/// Call only when csha256_has_sha_extensions() returned 1.
void csha1_compress_ni(uint32_t state[5], const uint8_t *data, size_t blocks);

#endif
