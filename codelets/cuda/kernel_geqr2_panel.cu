#include "geqr2_panel.cuh"

#include <cooperative_groups.h>

/* The first of the panel kernels (geqr2_panel.cuh): each block reads and
 * writes its rows in memory, so it takes panels of any height, and the
 * launchers, which pick it or the register kernel, for each precision. */

namespace cg = cooperative_groups;
using namespace startrd_geqr2;

namespace {

const int THREADS = 1024, WARPS = THREADS / 32;

/* Dynamic shared memory: w (nb entries), then a column of the block's rows
 * (x scaled by the block's exponent, then v). */
template <typename T>
__global__ void __launch_bounds__(THREADS) geqr2_panel_kernel(int m, int nb, T *A, int64_t lda, T *tau,
                                                            real_t<T> *part, const int *only_if)
{
    using R = real_t<T>;
    constexpr int K = NREAL<T>;

    if (only_if != NULL && *only_if == 0)
        return;
    cg::grid_group grid = cg::this_grid();
    const int nblocks = (int)gridDim.x, me = (int)blockIdx.x;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const int64_t r0 = (int64_t)me * m / nblocks, r1 = (int64_t)(me + 1) * m / nblocks;
    const int64_t stride = part_stride<T>(nb);
    __shared__ R red[4][WARPS];
    __shared__ reflector<T> rf;
    /* One name for every T: an extern array's type cannot vary. */
    extern __shared__ __align__(16) unsigned char sh_bytes[];
    T *sh = reinterpret_cast<T *>(sh_bytes);
    T *w = sh, *col = sh + nb;   /* col[i - r0] */

    for (int j = 0; j < nb && j < m; j++) {
        R *mine = part + ((int64_t)(j % 2) * nblocks + me) * stride;
        T *x = A + (int64_t)j * lda;
        const int64_t first = r0 > j + 1 ? r0 : j + 1;   /* this block's rows below the diagonal */
        R amax = 0;
        blue<R> b = {0, 0, 0};
        int e;

        /* The block's largest entry of x, and Blue's sums. */
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS)
            amax = entry_add(amax, b, x[i]);
        amax = startrd_warp_max(amax);
        b.asml = startrd_warp_sum(b.asml);
        b.amed = startrd_warp_sum(b.amed);
        b.abig = startrd_warp_sum(b.abig);
        if (lane == 0) {
            red[0][warp] = amax;
            red[1][warp] = b.asml;
            red[2][warp] = b.amed;
            red[3][warp] = b.abig;
        }
        __syncthreads();
        amax = 0;
        for (int k = 0; k < WARPS; k++)
            amax = fmax(amax, red[0][k]);
        e = amax > R(0) ? exponent_of(amax) : 0;
        if (threadIdx.x < 3) {
            R sum = 0;

            for (int k = 0; k < WARPS; k++)
                sum += red[1 + threadIdx.x][k];
            mine[P_ASML + threadIdx.x] = sum;
        } else if (threadIdx.x == 3) {
            mine[P_EXP] = amax > R(0) ? (R)e : NO_ENTRY<R>;
        }
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS)
            col[i - r0] = scale2(x[i], -e);
        __syncthreads();
        /* d_c: a warp per column, its lanes down the rows. */
        for (int c = j + 1 + warp; c < nb; c += WARPS) {
            const T *ac = A + (int64_t)c * lda;
            R dr = 0, di = 0;

#pragma unroll 4
            for (int64_t i = first + lane; i < r1; i += 32)
                conj_dot_add(dr, di, col[i - r0], ac[i]);
            publish_d<T>(mine, c, lane, dr, di);
        }
        /* The owner of row j publishes it. */
        if (j >= r0 && j < r1) {
            for (int c = j + (int)threadIdx.x; c < nb; c += THREADS) {
                T a = A[(int64_t)c * lda + j];

                if (c == j)
                    store_entry(mine, P_ALPHA, a);
                else
                    store_entry(mine, P_D<T> + K * (int64_t)nb + K * c, a);
            }
        }
        grid.sync();

        const R *all = part + (int64_t)(j % 2) * nblocks * stride;
        if (warp == 0)
            derive_reflector(all, nblocks, stride, m, j, lane, &rf);
        __syncthreads();
        if (rf.skip) {
            if (me == 0 && threadIdx.x == 0)
                tau[j] = startrd_zero<T>();
            continue;
        }
        /* w_c = A(j, c) + sum_b conj(s 2^(e_b - emax)) d_c(b): a warp per
         * column, its lanes over the blocks. */
        for (int c = j + 1 + warp; c < nb; c += WARPS) {
            R wr = 0, wi = 0;

            for (int k = lane; k < nblocks; k += 32) {
                const R *p = all + k * stride;

                if (p[P_EXP] != NO_ENTRY<R>) {
                    T t = startrd_mul(startrd_conj(scale2(rf.s, (int)p[P_EXP] - rf.emax)),
                                      load_entry<T>(p, P_D<T> + K * c));

                    wr += startrd_real(t);
                    if constexpr (startrd_scalar<T>::is_complex)
                        wi += startrd_imag(t);
                }
            }
            warp_sum_parts<T>(wr, wi);
            if (lane == 0) {
                const R *r = all + rf.owner * stride + P_D<T> + K * (int64_t)nb + K * c;

                w[c] = startrd_add(load_entry<T>(r, 0), startrd_make<T>(wr, wi));
            }
        }
        /* v, in place of x and in shared memory. */
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS) {
            T v = startrd_mul(scale2(x[i], -rf.emax), rf.s);

            x[i] = v;
            col[i - r0] = v;
        }
        __syncthreads();
        /* A(j:, c) -= conj(tau) w_c v, a warp per column. */
        {
            const T ct = startrd_conj(rf.tau);

            for (int c = j + 1 + warp; c < nb; c += WARPS) {
                T *ac = A + (int64_t)c * lda, f = startrd_mul(ct, w[c]);

#pragma unroll 4
                for (int64_t i = first + lane; i < r1; i += 32)
                    ac[i] = startrd_sub(ac[i], startrd_mul(f, col[i - r0]));
                if (me == rf.owner && lane == 0) {
                    const R *r = all + rf.owner * stride + P_D<T> + K * (int64_t)nb + K * c;

                    ac[j] = startrd_sub(load_entry<T>(r, 0), f);
                }
            }
        }
        if (me == rf.owner && threadIdx.x == 0)
            x[j] = startrd_make<T>(rf.beta);
        if (me == 0 && threadIdx.x == 0)
            tau[j] = rf.tau;
        __syncthreads();
    }
}

/* Shared memory of a launch of the first kernel on nblocks blocks. */
template <typename T>
inline size_t shared_bytes(int64_t m, int64_t nb, int nblocks)
{
    return (size_t)(nb + (m + nblocks - 1) / nblocks + 1) * sizeof(T);
}

/* Whether @p nblocks blocks run the register kernel: each then holds at
 * most REG_ROWS rows, and a lane reads the results of at most
 * REG_LANE_BLOCKS of them. */
template <typename T>
inline bool use_regs(int64_t m, int64_t nb, int nblocks)
{
    return regs_kernel<T>(nb) != NULL && (m + nblocks - 1) / nblocks <= REG_ROWS && nblocks <= REG_MAX_BLOCKS;
}

/* What the launchers ask of the current GPU, queried once per device by
 * each thread that drives one: a panel is on the critical path, and these
 * queries (the occupancy calculation above all) are host time before its
 * launch.  The kernels differ by precision, and so do these. */
struct device_facts {
    int dev = -1;
    cudaError_t status = cudaSuccess;
    int sms = 0, smem_optin = 0;
    int regs_resident[3] = {0, 0, 0};   /* resident register-kernel blocks, by REG_COLS 1, 2, 4 */
    size_t stream_smem_set = 48 * 1024; /* the first kernel's dynamic shared-memory limit as set */
    size_t stream_smem_max = 0;         /* the most it can be set to: the opt-in limit less the static */
};

template <typename T>
device_facts &current_device(void)
{
    thread_local device_facts f;
    int dev;
    cudaError_t st = cudaGetDevice(&dev);

    if (st != cudaSuccess) {
        thread_local device_facts failed;

        failed.status = st;
        return failed;
    }
    if (dev == f.dev)
        return f;
    f = device_facts();
    f.dev = dev;
    cudaFuncAttributes attr;

    if ((st = cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, dev)) == cudaSuccess &&
        (st = cudaDeviceGetAttribute(&f.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) == cudaSuccess &&
        (st = cudaFuncGetAttributes(&attr, geqr2_panel_kernel<T>)) == cudaSuccess)
        f.stream_smem_max = (size_t)f.smem_optin - attr.sharedSizeBytes;
    for (int i = 0; st == cudaSuccess && i < 3; i++) {
        int per_sm;

        st = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, regs_kernel<T>(REG_THREADS / 32 << i),
                                                           REG_THREADS, 0);
        f.regs_resident[i] = f.sms * per_sm;
    }
    f.status = st;
    return f;
}

/* Resident register-kernel blocks for nb columns (regs_kernel(nb) != NULL). */
int regs_resident(const device_facts &f, int64_t nb)
{
    return f.regs_resident[nb <= REG_THREADS / 32 ? 0 : nb <= 2 * (REG_THREADS / 32) ? 1 : 2];
}

/*
 * Lets the first kernel take @p bytes of dynamic shared memory past the 48
 * KiB any kernel may, on the current GPU.  The limit is the device's, not
 * the thread's: it is always set to the most the kernel can take, so that
 * the threads that drive one GPU never lower it under each other; the
 * opt-in limit itself would leave nothing for the kernel's static shared
 * memory and is refused.
 */
template <typename T>
cudaError_t allow_stream_smem(device_facts &f, size_t bytes)
{
    cudaError_t st;

    if (bytes <= f.stream_smem_set)
        return cudaSuccess;
    if (bytes > f.stream_smem_max)
        return cudaErrorInvalidConfiguration;
    if ((st = cudaFuncSetAttribute((const void *)geqr2_panel_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)f.stream_smem_max)) != cudaSuccess) {
        (void)cudaGetLastError();
        return st;
    }
    f.stream_smem_set = f.stream_smem_max;
    return cudaSuccess;
}

/* Blocks of the first kernel that can be resident at once with @p smem bytes each. */
template <typename T>
int stream_resident(const device_facts &f, size_t smem)
{
    int per_sm;

    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, geqr2_panel_kernel<T>, THREADS, smem) != cudaSuccess)
        return 0;
    return f.sms * per_sm;
}

template <typename T>
int geqr2_panel_blocks(int64_t m, int64_t nb)
{
    /* The panel in registers where it takes at most half the GPU's
     * multiprocessors (m <= 8448 on an H200, in complex double): the
     * trailing update runs beside it.  In stage 1 that beat the first
     * kernel on every panel and was no slower than the register kernel on
     * up to the whole GPU.  Beyond that the first kernel, on a block per
     * 128 rows, at most STARTRD_CUDA_ZGEQR2_BLOCKS: a block takes a whole
     * multiprocessor's registers, which the update then lacks.  More blocks
     * factor the panel faster, alone or beside a stream of ZGEMMs, but
     * stage 1 at the largest order measured was faster on fewer
     * (docs/experiments.md, "Figures moved from the code").  More only
     * where a block's column would not fit in shared memory.  Measured in
     * complex double only. */
    int64_t want = (m + REG_ROWS - 1) / REG_ROWS;
    device_facts &f = current_device<T>();

    if (f.status != cudaSuccess)
        return 0;
    if (regs_kernel<T>(nb) != NULL && 2 * want <= regs_resident(f, nb) && want <= REG_MAX_BLOCKS)
        return (int)(want < 1 ? 1 : want);
    if (want > STARTRD_CUDA_ZGEQR2_BLOCKS)
        want = STARTRD_CUDA_ZGEQR2_BLOCKS;
    while (want < m && shared_bytes<T>(m, nb, (int)want) > f.stream_smem_max)
        want *= 2;
    /* The first kernel on the tallest panels only: the occupancy stays a
     * call, its shared memory depends on m. */
    const size_t bytes = shared_bytes<T>(m, nb, (int)want);

    if (allow_stream_smem<T>(f, bytes) != cudaSuccess || want > stream_resident<T>(f, bytes))
        return 0;
    return (int)(want < 1 ? 1 : want);
}

template <typename T>
cudaError_t geqr2_panel(int64_t m, int64_t nb, T *A, int64_t lda, T *tau, real_t<T> *scratch, int nblocks,
                        const int *only_if, cudaStream_t stream)
{
    int im = (int)m, inb = (int)nb;
    void *args[] = {&im, &inb, &A, &lda, &tau, &scratch, &only_if};
    cudaError_t st;

    if (nblocks < 1)
        return cudaErrorInvalidConfiguration;
    if (use_regs<T>(m, nb, nblocks))
        return cudaLaunchCooperativeKernel(regs_kernel<T>(nb), dim3((unsigned)nblocks), dim3(REG_THREADS), args, 0,
                                           stream);
    device_facts &f = current_device<T>();
    const size_t bytes = shared_bytes<T>(m, nb, nblocks);

    if (f.status != cudaSuccess)
        return f.status;
    if ((st = allow_stream_smem<T>(f, bytes)) != cudaSuccess)
        return st;
    return cudaLaunchCooperativeKernel((const void *)geqr2_panel_kernel<T>, dim3((unsigned)nblocks), dim3(THREADS),
                                       args, bytes, stream);
}

} // namespace

#define GEQR2_PANEL(p, T)                                                                                       \
    extern "C" int64_t startrd_cuda_##p##geqr2_panel_scratch(int64_t nb, int nblocks)                           \
    {                                                                                                           \
        return 2 * (int64_t)nblocks * part_stride<T>((int)nb);                                                  \
    }                                                                                                           \
    extern "C" int startrd_cuda_##p##geqr2_panel_blocks(int64_t m, int64_t nb)                                  \
    {                                                                                                           \
        return geqr2_panel_blocks<T>(m, nb);                                                                    \
    }                                                                                                           \
    extern "C" cudaError_t startrd_cuda_##p##geqr2_panel(int64_t m, int64_t nb, T *A, int64_t lda, T *tau,      \
                                                         real_t<T> *scratch, int nblocks, const int *only_if,   \
                                                         cudaStream_t stream)                                   \
    {                                                                                                           \
        return geqr2_panel<T>(m, nb, A, lda, tau, scratch, nblocks, only_if, stream);                           \
    }
STARTRD_FOR_EACH_PRECISION(GEQR2_PANEL)
