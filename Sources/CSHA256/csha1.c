// SHA-1 compression with the x86 SHA extensions, for the WARC digests an export writes for every archived byte:
// SHA1RNDS4 does four rounds, SHA1NEXTE the next E, SHA1MSG1/SHA1MSG2 a quarter of the message schedule. Written for
// podarchive from the instruction definitions in Intel's SDM; checked against the portable code by the tests.
#include "csha256.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("sha,ssse3,sse4.1")))
void csha1_compress_ni(uint32_t state[5], const uint8_t *data, size_t blocks) {
    // The instructions take each 16 bytes of the message as four big-endian words, highest lane first.
    const __m128i reverse = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B);
    __m128i e = _mm_set_epi32((int)state[4], 0, 0, 0);

    while (blocks--) {
        const __m128i abcd_saved = abcd, e_saved = e;
        __m128i w[4];
        __m128i before = abcd;  // ABCD before the last four rounds: the E of the next four (SHA1NEXTE)
        for (int group = 0; group < 20; group++) {
            __m128i *current = &w[group & 3];
            if (group < 4) *current = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), reverse);
            __m128i next_e = group == 0 ? _mm_add_epi32(e, *current) : _mm_sha1nexte_epu32(before, *current);
            before = abcd;
            switch (group / 5) {
            case 0: abcd = _mm_sha1rnds4_epu32(abcd, next_e, 0); break;
            case 1: abcd = _mm_sha1rnds4_epu32(abcd, next_e, 1); break;
            case 2: abcd = _mm_sha1rnds4_epu32(abcd, next_e, 2); break;
            default: abcd = _mm_sha1rnds4_epu32(abcd, next_e, 3); break;
            }
            // W[g] = MSG2(MSG1(W[g-4], W[g-3]) ^ W[g-2], W[g-1]), each step taken as soon as its input is here.
            if (group >= 3 && group <= 18) w[(group + 1) & 3] = _mm_sha1msg2_epu32(w[(group + 1) & 3], *current);
            if (group >= 1 && group <= 16) w[(group + 3) & 3] = _mm_sha1msg1_epu32(w[(group + 3) & 3], *current);
            if (group >= 2 && group <= 17) w[(group + 2) & 3] = _mm_xor_si128(w[(group + 2) & 3], *current);
        }
        e = _mm_sha1nexte_epu32(before, e_saved);
        abcd = _mm_add_epi32(abcd, abcd_saved);
        data += 64;
    }
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1B));
    state[4] = (uint32_t)_mm_extract_epi32(e, 3);
}

#else

void csha1_compress_ni(uint32_t state[5], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

#endif
