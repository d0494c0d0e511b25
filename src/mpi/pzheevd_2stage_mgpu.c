/* pzheevd_2stage_mgpu(): the eigenproblem of a matrix in a ScaLAPACK layout.
 * ScaLAPACK's PZGEMR2D gathers the submatrix on the grid's process (0, 0),
 * as a matrix of one block in the caller's own context, so that no new
 * BLACS grid (a collective over every process of the system context) is
 * made; that process solves it with zheevd_2stage_mgpu(), and PZGEMR2D
 * deals the eigenvectors into Z's layout. */
#include "startrd_mpi.h"

#include "blacs.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The arguments of zheevd_2stage_mgpu() and of this call that ngpu is. */
enum { NODE_ARG_NGPU = 7, ARG_NGPU = 13 };

/* 0, or -(100 arg + entry) for the first bad entry of descriptor @p desc
 * (argument @p arg) on this process of the nprow x npcol grid. */
static int check_descriptor(const int *desc, int arg, int context, int nprow, int npcol, int myrow)
{
    int bad = 0;

    if (desc[DESC_DTYPE] != 1)
        bad = DESC_DTYPE + 1;
    else if (desc[DESC_CTXT] != context)
        bad = DESC_CTXT + 1;
    else if (desc[DESC_M] < 0)
        bad = DESC_M + 1;
    else if (desc[DESC_N] < 0)
        bad = DESC_N + 1;
    else if (desc[DESC_MB] < 1)
        bad = DESC_MB + 1;
    else if (desc[DESC_NB] < 1)
        bad = DESC_NB + 1;
    else if (desc[DESC_RSRC] < 0 || desc[DESC_RSRC] >= nprow)
        bad = DESC_RSRC + 1;
    else if (desc[DESC_CSRC] < 0 || desc[DESC_CSRC] >= npcol)
        bad = DESC_CSRC + 1;
    else {
        int rows = numroc_(&desc[DESC_M], &desc[DESC_MB], &myrow, &desc[DESC_RSRC], &nprow);

        if (desc[DESC_LLD] < (rows > 1 ? rows : 1))
            bad = DESC_LLD + 1;
    }
    return bad == 0 ? 0 : -(100 * arg + bad);
}

/* 0, or -i: the submatrix of order n from global (i0, j0) (arguments
 * @p arg_i and arg_i + 1) lies outside the matrix of @p desc. */
static int check_submatrix(int n, int i0, int j0, const int *desc, int arg_i)
{
    if (i0 < 1 || (int64_t)i0 + n - 1 > desc[DESC_M])
        return -arg_i;
    if (j0 < 1 || (int64_t)j0 + n - 1 > desc[DESC_N])
        return -(arg_i + 1);
    return 0;
}

static int check_arguments(char jobz, char uplo, int n, int ia, int ja, const int *desca, int iz, int jz,
                           const int *descz, int nprow, int npcol, int myrow)
{
    int context = desca[DESC_CTXT], info;

    if (jobz != 'N' && jobz != 'V')
        return -1;
    if (uplo != 'U' && uplo != 'L')
        return -2;
    if (n < 0)
        return -3;
    if ((info = check_descriptor(desca, 7, context, nprow, npcol, myrow)) != 0 ||
        (info = check_submatrix(n, ia, ja, desca, 5)) != 0)
        return info;
    if (jobz == 'V' && ((info = check_descriptor(descz, 12, context, nprow, npcol, myrow)) != 0 ||
                        (info = check_submatrix(n, iz, jz, descz, 10)) != 0))
        return info;
    return 0;
}

/* The first error any process of the grid found (the one of the lowest
 * argument), on every process: each checks its own leading dimensions. */
static int first_error(int context, int info)
{
    int key = info == 0 ? INT_MAX : -info;

    Cigamn2d(context, "All", " ", 1, 1, &key, 1, NULL, NULL, -1, -1, -1);
    return key == INT_MAX ? 0 : -key;
}

/* Process (0, 0)'s @p status, on every process of the grid. */
static int from_root(int context, int root, int status)
{
    if (root)
        Cigebs2d(context, "All", " ", 1, 1, &status, 1);
    else
        Cigebr2d(context, "All", " ", 1, 1, &status, 1, 0, 0);
    return status;
}

int pzheevd_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int ia, int ja, const int *desca,
                        double *w, double _Complex *Z, int iz, int jz, const int *descz, int ngpu)
{
    int context = desca[DESC_CTXT], nprow, npcol, myrow, mycol, one = 1, status;
    double _Complex *whole = NULL, none = 0;

    Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
    /* No grid, or not in it: no process to agree with (as PZHEEVD says). */
    if (nprow < 1 || myrow < 0)
        return -(100 * 7 + DESC_CTXT + 1);
    status = first_error(context, check_arguments(jobz, uplo, n, ia, ja, desca, iz, jz, descz, nprow, npcol, myrow));
    if (status != 0 || n == 0)
        return status;

    const int root = myrow == 0 && mycol == 0;
    /* One block of n x n on process (0, 0): the rest of process row 0
     * holds its n rows and no column, and PZGEMR2D wants a leading
     * dimension of n there too. */
    const int descw[DESC_LEN] = {1, context, n, n, n, n, 0, 0, myrow == 0 ? n : 1};

    if (root && (whole = malloc((size_t)n * (size_t)n * sizeof *whole)) == NULL) {
        fprintf(stderr, "startrd: pzheevd_2stage_mgpu: cannot allocate the gathered %d x %d matrix\n", n, n);
        status = STARTRD_ERR_MEMORY;
    }
    if ((status = from_root(context, root, status)) != 0)
        return status;
    pzgemr2d_(&n, &n, A, &ia, &ja, desca, root ? whole : &none, &one, &one, descw, &context);
    if (root) {
        status = zheevd_2stage_mgpu(jobz, uplo, n, whole, n, w, ngpu);
        if (status == -NODE_ARG_NGPU)
            status = -ARG_NGPU;
    }
    if ((status = from_root(context, root, status)) == 0) {
        if (root)
            Cdgebs2d(context, "All", " ", n, 1, w, n);
        else
            Cdgebr2d(context, "All", " ", n, 1, w, n, 0, 0);
        if (jobz == 'V')
            pzgemr2d_(&n, &n, root ? whole : &none, &one, &one, descw, Z, &iz, &jz, descz, &context);
    }
    free(whole);
    return status;
}
