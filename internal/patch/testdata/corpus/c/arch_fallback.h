#pragma once

/*
 * Test input for the patch corpus: a header that maps kernel names to
 * their generic versions for each architecture, so that the same lines
 * come back block after block, as in real fallback headers.
 */

// Rename the generic kernels to their final names, per architecture.

#if defined(__aarch64__) || defined(_M_ARM64)
// repack
#define repack_q4_0_4x4_generic repack_q4_0_4x4
#define repack_q4_0_4x8_generic repack_q4_0_4x8
#define repack_q4_K_8x8_generic repack_q4_K_8x8
// gemv
#define gemv_q4_0_4x4_generic gemv_q4_0_4x4
#define gemv_q4_0_4x8_generic gemv_q4_0_4x8
#define gemv_q4_K_8x4_generic gemv_q4_K_8x4
#define gemv_q4_K_8x8_generic gemv_q4_K_8x8
#define gemv_iq4_nl_4x4_generic gemv_iq4_nl_4x4
// gemm
#define gemm_q4_0_4x4_generic gemm_q4_0_4x4
#define gemm_q4_0_4x8_generic gemm_q4_0_4x8
#define gemm_q4_K_8x8_generic gemm_q4_K_8x8
#elif defined(__x86_64__) || defined(_M_X64)
// repack
#define repack_q4_0_4x4_generic repack_q4_0_4x4
#define repack_q4_0_4x8_generic repack_q4_0_4x8
#define repack_q8_0_4x4_generic repack_q8_0_4x4
// gemv
#define gemv_q4_0_4x4_generic gemv_q4_0_4x4
#define gemv_q4_0_4x8_generic gemv_q4_0_4x8
#define gemv_q4_K_8x4_generic gemv_q4_K_8x4
#define gemv_q4_K_8x8_generic gemv_q4_K_8x8
#define gemv_iq4_nl_4x4_generic gemv_iq4_nl_4x4
// gemm
#define gemm_q4_0_4x4_generic gemm_q4_0_4x4
#define gemm_q4_0_4x8_generic gemm_q4_0_4x8
#define gemm_q8_0_4x4_generic gemm_q8_0_4x4
#elif defined(__riscv)
// repack
#define repack_q4_0_4x4_generic repack_q4_0_4x4
#define repack_q4_0_4x8_generic repack_q4_0_4x8
#define repack_q4_K_8x8_generic repack_q4_K_8x8
// gemv
#define gemv_q4_0_4x4_generic gemv_q4_0_4x4
#define gemv_q4_0_4x8_generic gemv_q4_0_4x8
#define gemv_q4_K_8x4_generic gemv_q4_K_8x4
#define gemv_q4_K_8x8_generic gemv_q4_K_8x8
#define gemv_iq4_nl_4x4_generic gemv_iq4_nl_4x4
// gemm
#define gemm_q4_0_4x4_generic gemm_q4_0_4x4
#define gemm_q4_0_4x8_generic gemm_q4_0_4x8
#define gemm_q4_K_8x8_generic gemm_q4_K_8x8
#elif defined(__wasm__)
// repack
#define repack_q4_0_4x4_generic repack_q4_0_4x4
// gemv
#define gemv_q4_0_4x4_generic gemv_q4_0_4x4
#define gemv_q4_0_4x8_generic gemv_q4_0_4x8
// gemm
#define gemm_q4_0_4x4_generic gemm_q4_0_4x4
#define gemm_q4_0_4x8_generic gemm_q4_0_4x8
#endif

#ifdef __cplusplus
extern "C" {
#endif

void kernels_init(void);
int kernels_count(void);

#ifdef __cplusplus
}
#endif
