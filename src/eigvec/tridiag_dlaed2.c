/* The deflation of Cuppen's divide and conquer as Dongarra and Sorensen
 * gave it, with LAPACK's tolerance and LAPACK's order of operations, so
 * that the library's merges take the same decisions as LAPACK's DLAED2 to
 * the last bit (test_dstedc compares them).  Indices of columns and
 * eigenvalues are 0-based here; INDXQ, INDX, INDXC and INDXP keep LAPACK's
 * 1-based values, which DLAMRG and DLAED3's steps read.
 *
 * @precisions normal d -> s
 */
#include "tridiag_dlaed2.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

void dlamrg_(const int *n1, const int *n2, const double *a, const int *dtrd1, const int *dtrd2, int *index);

enum { TYPE_TOP = 1, TYPE_BOTH = 2, TYPE_BOTTOM = 3, TYPE_DEFLATED = 4 };

/* Eigenvalue p (0-based) deflated by a rotation: into the deflated ones,
 * which fill indxp from the end, kept in decreasing order of d. */
static void insert_deflated(const double *d, int *indxp, int n, int k2, int p)
{
    int i = k2 + 1;

    while (i < n && d[p] < d[indxp[i] - 1]) {
        indxp[i - 1] = indxp[i];
        i++;
    }
    indxp[i - 1] = p + 1;
}

int startrd_dlaed2_plan(int n, int n1, double *d, double *q, int ldq, int *indxq, double *rho, double *z,
                        double *dlamda, double *w, int *indx, int *indxc, int *indxp, int *coltyp,
                        startrd_drotation_t *rotations, startrd_dlaed2_t *plan)
{
    const int n2 = n - n1, one = 1;
    int k = 0, k2 = n, j = 0, p = -1, ctot[4] = {0}, next[4];
    double tol;

    if (n < 0)
        return -2;
    if (ldq < (n > 1 ? n : 1))
        return -6;
    if ((1 < n / 2 ? 1 : n / 2) > n1 || n / 2 < n1)
        return -3;
    *plan = (startrd_dlaed2_t){.n = n, .n1 = n1, .ldq = ldq, .indx = indx};
    if (n == 0)
        return 0;
    /* The updating vector, normalized with rho made positive. */
    if (*rho < 0.0)
        cblas_dscal(n2, -1.0, z + n1, 1);
    cblas_dscal(n, 1.0 / sqrt(2.0), z, 1);
    *rho = fabs(2 * *rho);
    /* Both halves' eigenvalues in one ascending order. */
    for (int i = n1; i < n; i++)
        indxq[i] += n1;
    for (int i = 0; i < n; i++)
        dlamda[i] = d[indxq[i] - 1];
    dlamrg_(&n1, &n2, dlamda, &one, &one, indxc);
    for (int i = 0; i < n; i++)
        indx[i] = indxq[indxc[i] - 1];
    {
        int zmax = (int)cblas_idamax(n, z, 1), dmax = (int)cblas_idamax(n, d, 1);

        tol = 8.0 * LAPACKE_dlamch('E') * fmax(fabs(d[dmax]), fabs(z[zmax]));
        if (*rho * fabs(z[zmax]) <= tol) {
            /* All of z negligible: the merged problem is already diagonal. */
            for (int i = 0; i < n; i++)
                dlamda[i] = d[indx[i] - 1];
            memcpy(d, dlamda, (size_t)n * sizeof *d);
            plan->all = 1;
            return 0;
        }
    }
    for (int i = 0; i < n; i++)
        coltyp[i] = i < n1 ? TYPE_TOP : TYPE_BOTTOM;
    /* Walk the eigenvalues in ascending order: a negligible z_j deflates
     * eigenvalue j; two neighbours close enough are rotated into one that
     * stays and one that deflates; the rest stay, in order, in dlamda. */
    for (; j < n && p < 0; j++) {
        int c = indx[j] - 1;

        if (*rho * fabs(z[c]) <= tol) {
            coltyp[c] = TYPE_DEFLATED;
            indxp[--k2] = c + 1;
        } else {
            p = c;
        }
    }
    for (; j < n; j++) {
        int c = indx[j] - 1;

        if (*rho * fabs(z[c]) <= tol) {
            coltyp[c] = TYPE_DEFLATED;
            indxp[--k2] = c + 1;
            continue;
        }
        double sn = z[p], cs = z[c], tau = LAPACKE_dlapy2_work(cs, sn), gap = d[c] - d[p];

        cs = cs / tau;
        sn = -sn / tau;
        if (fabs(gap * cs * sn) <= tol) {
            z[c] = tau;
            z[p] = 0.0;
            if (coltyp[c] != coltyp[p])
                coltyp[c] = TYPE_BOTH;
            coltyp[p] = TYPE_DEFLATED;
            if (q != NULL)
                cblas_drot(n, q + (int64_t)p * ldq, 1, q + (int64_t)c * ldq, 1, cs, sn);
            else
                rotations[plan->nrot++] = (startrd_drotation_t){p, c, cs, sn};
            gap = d[p] * (cs * cs) + d[c] * (sn * sn);
            d[c] = d[p] * (sn * sn) + d[c] * (cs * cs);
            d[p] = gap;
            insert_deflated(d, indxp, n, --k2, p);
        } else {
            dlamda[k] = d[p];
            w[k] = z[p];
            indxp[k++] = p + 1;
        }
        p = c;
    }
    dlamda[k] = d[p];
    w[k] = z[p];
    indxp[k++] = p + 1;

    /* Columns by type, each type in the order above: Q2's layout. */
    for (int i = 0; i < n; i++)
        ctot[coltyp[i] - 1]++;
    next[0] = 0;
    for (int t = 1; t < 4; t++)
        next[t] = next[t - 1] + ctot[t - 1];
    k = n - ctot[3];
    for (int i = 0; i < n; i++) {
        int c = indxp[i] - 1, t = coltyp[c] - 1;

        indx[next[t]] = c + 1;
        indxc[next[t]++] = i + 1;
    }
    for (int i = 0; i < n; i++)
        z[i] = d[indx[i] - 1];
    if (k < n)
        memcpy(d + k, z + k, (size_t)(n - k) * sizeof *d);
    memcpy(plan->ctot, ctot, sizeof ctot);
    plan->k = k;
    return 0;
}

int startrd_dlaed2_gather_moves(const startrd_dlaed2_t *p, int64_t i, startrd_move_t moves[2])
{
    const int64_t n = p->n, n1 = p->n1, n2 = n - n1, c1 = p->ctot[0], c12 = c1 + p->ctot[1];
    const int64_t c123 = c12 + p->ctot[2], bottom = c12 * n1, col = (int64_t)(p->indx[i] - 1) * p->ldq;
    int count = 0;

    if (p->all) {
        moves[0] = (startrd_move_t){col, i * n, n};
        return 1;
    }
    if (i < c12)
        moves[count++] = (startrd_move_t){col, i * n1, n1};
    if (i >= c1 && i < c123)
        moves[count++] = (startrd_move_t){col + n1, bottom + (i - c1) * n2, n2};
    if (i >= c123)
        moves[count++] = (startrd_move_t){col, bottom + (c123 - c1) * n2 + (i - c123) * n, n};
    return count;
}

int64_t startrd_dlaed2_returns(const startrd_dlaed2_t *p)
{
    return p->all ? p->n : p->ctot[3];
}

startrd_move_t startrd_dlaed2_return_move(const startrd_dlaed2_t *p, int64_t j)
{
    const int64_t n = p->n, n1 = p->n1, c1 = p->ctot[0], c123 = c1 + p->ctot[1] + p->ctot[2];
    const int64_t first = p->all ? 0 : (c1 + p->ctot[1]) * n1 + (c123 - c1) * (n - n1);

    return (startrd_move_t){first + j * n, (p->k + j) * p->ldq, n};
}

void startrd_dlaed2_gather(const startrd_dlaed2_t *p, const double *q, double *q2, int64_t i)
{
    startrd_move_t moves[2];
    int count = startrd_dlaed2_gather_moves(p, i, moves);

    for (int t = 0; t < count; t++)
        memcpy(q2 + moves[t].dst, q + moves[t].src, (size_t)moves[t].len * sizeof *q);
}

void startrd_dlaed2_return(const startrd_dlaed2_t *p, double *q, const double *q2, int64_t j)
{
    startrd_move_t mv = startrd_dlaed2_return_move(p, j);

    memcpy(q + mv.dst, q2 + mv.src, (size_t)mv.len * sizeof *q);
}
