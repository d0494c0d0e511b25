/* pzheevd_2stage_mgpu(): the eigenproblem of a matrix in a ScaLAPACK
 * layout, solved by zheevd_2stage_mgpu() on the grid's process (0, 0)
 * (gathered.h), the eigenvectors dealt into Z's layout. */
#include "startrd_mpi.h"

#include "gathered.h"

/* The arguments of zheevd_2stage_mgpu() and of this call that ngpu is. */
enum { NODE_ARG_NGPU = 7, ARG_NGPU = 13 };

static int check_arguments(const startrd_grid_t *grid, char jobz, char uplo, int n, int ia, int ja,
                           const int *desca, int iz, int jz, const int *descz)
{
    int info = startrd_check_leading(grid, jobz, uplo, n, ia, ja, desca);

    if (info != 0)
        return info;
    if (jobz == 'V' && ((info = startrd_check_descriptor(grid, descz, 12)) != 0 ||
                        (info = startrd_check_submatrix(n, iz, jz, descz, 10)) != 0))
        return info;
    return 0;
}

int pzheevd_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int ia, int ja, const int *desca,
                        double *w, double _Complex *Z, int iz, int jz, const int *descz, int ngpu)
{
    startrd_grid_t grid;
    startrd_gathered_t g;
    int status = startrd_grid_of(desca, 7, &grid);

    if (status != 0)
        return status;
    status = startrd_first_error(&grid, check_arguments(&grid, jobz, uplo, n, ia, ja, desca, iz, jz, descz));
    if (status != 0 || n == 0 || (status = startrd_gather(&grid, n, A, ia, ja, desca, &g)) != 0)
        return status;
    if (startrd_grid_root(&grid)) {
        status = zheevd_2stage_mgpu(jobz, uplo, n, g.a, n, w, ngpu);
        if (status == -NODE_ARG_NGPU)
            status = -ARG_NGPU;
    }
    if ((status = startrd_from_root(&grid, status)) == 0) {
        startrd_broadcast_doubles(&grid, w, n);
        if (jobz == 'V')
            startrd_scatter(&g, Z, iz, jz, descz);
    }
    startrd_gathered_free(&g);
    return status;
}
