from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

from engine._core cimport State

cdef extern from *:
    """
    #if defined(__AVX512F__)
    #include <immintrin.h>
    #define EXP_WIDE_MASKS 1
    #elif defined(__AVX2__)
    #include <immintrin.h>
    #define EXP_WIDE_MASKS 1
    #else
    #define EXP_WIDE_MASKS 0
    #endif
    /* out[k] = bit k of a + bit k of b, for k < n <= 64: card counts from bit sets. With AVX-512,
       a masked move writes 16 of them at once; with AVX2, 8 at once (a byte of each set broadcast,
       its bits tested lane by lane), the last n % 8 one by one; elsewhere a plain loop. */
    static inline void exp_bits_to_floats(uint64_t a, uint64_t b, float *out, int n) {
    #if defined(__AVX512F__)
        const __m512 one = _mm512_set1_ps(1.0f);
        int k;
        for (k = 0; k < n; k += 16) {
            __m512 v = _mm512_add_ps(_mm512_maskz_mov_ps((__mmask16)(a >> k), one),
                                     _mm512_maskz_mov_ps((__mmask16)(b >> k), one));
            __mmask16 keep = n - k >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - k)) - 1);
            _mm512_mask_storeu_ps(out + k, keep, v);
        }
    #elif defined(__AVX2__)
        const __m256i lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        const __m256 one = _mm256_set1_ps(1.0f);
        int k;
        for (k = 0; k + 8 <= n; k += 8) {
            __m256i x = _mm256_and_si256(_mm256_set1_epi32((int)((a >> k) & 0xFF)), lane);
            __m256i y = _mm256_and_si256(_mm256_set1_epi32((int)((b >> k) & 0xFF)), lane);
            __m256 u = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, lane)), one);
            __m256 v = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(y, lane)), one);
            _mm256_storeu_ps(out + k, _mm256_add_ps(u, v));
        }
        for (; k < n; k++)
            out[k] = (float)(((a >> k) & 1) + ((b >> k) & 1));
    #else
        for (int k = 0; k < n; k++)
            out[k] = (float)(((a >> k) & 1) + ((b >> k) & 1));
    #endif
    }
    """
    # 1 where the compiler targets AVX-512 or AVX2 (the engine is built for the machine it runs on).
    const int EXP_WIDE_MASKS
    void exp_bits_to_floats(uint64_t a, uint64_t b, float* out, int n) noexcept nogil

# An edition's observation tensor: a C function that writes one seat's view of a state as a fixed
# number of floats, for learning code (docs/rl.md). Each family writes its own in
# engine/<family>/observation.pyx; the record's `observation` carries it.

# Writes the `size` floats of `seat`'s observation of state `s` into `out` (every entry: the
# function clears what it does not set). Reads only what the seat can see.
ctypedef void (*ObserveFn)(const void* s, int seat, float* out) noexcept nogil

# Brings `out`, which holds `prev_seat`'s observation of state `prev`, to `seat`'s observation of
# `s`, writing only the entries whose source differs: what an environment stepping one match calls
# after each decision instead of writing the tensor afresh. Correct for any two states of the edition
# with the same number of seats (a new deal too), fast when they differ by a decision.
ctypedef void (*UpdateFn)(const void* prev, int prev_seat, const void* s, int seat, float* out) noexcept nogil


cdef class Observation:
    cdef ObserveFn fn
    cdef UpdateFn update_fn    # NULL where the family has none (callers then write afresh)
    cdef readonly int size
    cdef readonly tuple fields
    cdef readonly str name
    cdef int _check(self, State state, int seat, float[::1] out) except -1


cdef Observation observation_of(str name, ObserveFn fn, tuple fields, UpdateFn update=*)


cdef inline bint same_bytes(const void* a, const void* b, size_t n) noexcept nogil:
    """Whether n bytes are equal, compared 8 at a time without an early exit: the incremental
    writers' test of what changed (inlined with a constant n, it unrolls to a few loads)."""
    cdef const uint8_t* x = <const uint8_t*>a
    cdef const uint8_t* y = <const uint8_t*>b
    cdef uint64_t d = 0, u, v
    cdef size_t i = 0
    while i + 8 <= n:
        memcpy(&u, x + i, 8)
        memcpy(&v, y + i, 8)
        d |= u ^ v
        i += 8
    while i < n:
        d |= x[i] ^ y[i]
        i += 1
    return d == 0
