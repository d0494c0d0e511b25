/* DLAED2 of LAPACK 3.12, its arithmetic and its order kept, so that the
 * results are LAPACK's bit for bit; arrays are indexed from 1 through
 * pointers moved back by one, as in the Fortran. */
#include "tridiag_deflate.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

double dlapy2_(const double *x, const double *y);
void dlamrg_(const int *n1, const int *n2, const double *a, const int *dtrd1, const int *dtrd2, int *index);

int startrd_deflation_plan(int n, int n1, double *d_, double *q, int ldq, int *indxq_, double *rho, double *z_,
                           double *dlamda_, double *w_, int *indx_, int *indxc_, int *indxp_, int *coltyp_,
                           startrd_deflation_t *plan)
{
    double *D = d_ - 1, *Z = z_ - 1, *DLAMBDA = dlamda_ - 1, *W = w_ - 1;
    int *INDXQ = indxq_ - 1, *INDX = indx_ - 1, *INDXC = indxc_ - 1, *INDXP = indxp_ - 1, *COLTYP = coltyp_ - 1;
    const int n2 = n - n1, one = 1;
    int k, k2, j, nj, pj = 0, ctot[4] = {0}, psm[4];
    double tol;

    if (n < 0)
        return -2;
    if (ldq < (n > 1 ? n : 1))
        return -6;
    if ((1 < n / 2 ? 1 : n / 2) > n1 || n / 2 < n1)
        return -3;
    *plan = (startrd_deflation_t){.n = n, .n1 = n1, .ldq = ldq, .indx = indx_};
    if (n == 0)
        return 0;
    if (*rho < 0.0)
        cblas_dscal(n2, -1.0, &Z[n1 + 1], 1);
    cblas_dscal(n, 1.0 / sqrt(2.0), &Z[1], 1);
    *rho = fabs(2.0 * *rho);
    for (int i = n1 + 1; i <= n; i++)
        INDXQ[i] += n1;
    for (int i = 1; i <= n; i++)
        DLAMBDA[i] = D[INDXQ[i]];
    dlamrg_(&n1, &n2, &DLAMBDA[1], &one, &one, &INDXC[1]);
    for (int i = 1; i <= n; i++)
        INDX[i] = INDXQ[INDXC[i]];
    {
        int imax = (int)cblas_idamax(n, &Z[1], 1) + 1, jmax = (int)cblas_idamax(n, &D[1], 1) + 1;

        tol = 8.0 * LAPACKE_dlamch('E') * fmax(fabs(D[jmax]), fabs(Z[imax]));
        if (*rho * fabs(Z[imax]) <= tol) {
            /* Every eigenvalue deflated: Q's columns and D in INDX's order. */
            for (j = 1; j <= n; j++)
                DLAMBDA[j] = D[INDX[j]];
            memcpy(&D[1], &DLAMBDA[1], (size_t)n * sizeof *D);
            plan->k = 0;
            plan->all = 1;
            return 0;
        }
    }
    for (int i = 1; i <= n1; i++)
        COLTYP[i] = 1;
    for (int i = n1 + 1; i <= n; i++)
        COLTYP[i] = 3;
    k = 0;
    k2 = n + 1;
    for (j = 1; j <= n; j++) {
        nj = INDX[j];
        if (*rho * fabs(Z[nj]) <= tol) {
            k2--;
            COLTYP[nj] = 4;
            INDXP[k2] = nj;
        } else {
            pj = nj;
            break;
        }
    }
    /* Some z_j is not negligible, or all would have deflated above. */
    for (j++; j <= n; j++) {
        nj = INDX[j];
        if (*rho * fabs(Z[nj]) <= tol) {
            k2--;
            COLTYP[nj] = 4;
            INDXP[k2] = nj;
            continue;
        }
        double s = Z[pj], c = Z[nj], tau = dlapy2_(&c, &s), t = D[nj] - D[pj];

        c = c / tau;
        s = -s / tau;
        if (fabs(t * c * s) <= tol) {
            /* Two close eigenvalues: one rotation deflates one of them. */
            Z[nj] = tau;
            Z[pj] = 0.0;
            if (COLTYP[nj] != COLTYP[pj])
                COLTYP[nj] = 2;
            COLTYP[pj] = 4;
            cblas_drot(n, q + (int64_t)(pj - 1) * ldq, 1, q + (int64_t)(nj - 1) * ldq, 1, c, s);
            t = D[pj] * (c * c) + D[nj] * (s * s);
            D[nj] = D[pj] * (s * s) + D[nj] * (c * c);
            D[pj] = t;
            k2--;
            int i = 1;

            while (k2 + i <= n && D[pj] < D[INDXP[k2 + i]]) {
                INDXP[k2 + i - 1] = INDXP[k2 + i];
                INDXP[k2 + i] = pj;
                i++;
            }
            INDXP[k2 + i - 1] = pj;
            pj = nj;
        } else {
            k++;
            DLAMBDA[k] = D[pj];
            W[k] = Z[pj];
            INDXP[k] = pj;
            pj = nj;
        }
    }
    k++;
    DLAMBDA[k] = D[pj];
    W[k] = Z[pj];
    INDXP[k] = pj;

    for (j = 1; j <= n; j++)
        ctot[COLTYP[j] - 1]++;
    psm[0] = 1;
    psm[1] = 1 + ctot[0];
    psm[2] = psm[1] + ctot[1];
    psm[3] = psm[2] + ctot[2];
    k = n - ctot[3];
    for (j = 1; j <= n; j++) {
        int js = INDXP[j], ct = COLTYP[js] - 1;

        INDX[psm[ct]] = js;
        INDXC[psm[ct]] = j;
        psm[ct]++;
    }
    for (int i = 1; i <= n; i++)
        Z[i] = D[INDX[i]];
    if (k < n)
        memcpy(&D[k + 1], &Z[k + 1], (size_t)(n - k) * sizeof *D);
    memcpy(plan->ctot, ctot, sizeof ctot);
    memcpy(coltyp_, ctot, sizeof ctot);
    plan->k = k;
    return 0;
}

void startrd_deflation_gather(const startrd_deflation_t *p, const double *q, double *q2, int64_t i)
{
    const int64_t n = p->n, n1 = p->n1, n2 = n - n1, c1 = p->ctot[0], c12 = c1 + p->ctot[1];
    const int64_t c123 = c12 + p->ctot[2], bottom = c12 * n1;
    const double *col = q + (int64_t)(p->indx[i] - 1) * p->ldq;
    size_t top_bytes = (size_t)n1 * sizeof *q, bottom_bytes = (size_t)n2 * sizeof *q;

    if (p->all) {
        memcpy(q2 + i * n, col, (size_t)n * sizeof *q);
        return;
    }
    if (i < c12)
        memcpy(q2 + i * n1, col, top_bytes);
    if (i >= c1 && i < c123)
        memcpy(q2 + bottom + (i - c1) * n2, col + n1, bottom_bytes);
    if (i >= c123)
        memcpy(q2 + bottom + (c123 - c1) * n2 + (i - c123) * n, col, (size_t)n * sizeof *q);
}

int64_t startrd_deflation_returns(const startrd_deflation_t *p)
{
    return p->all ? p->n : p->ctot[3];
}

void startrd_deflation_return(const startrd_deflation_t *p, double *q, const double *q2, int64_t j)
{
    const int64_t n = p->n, n1 = p->n1, c1 = p->ctot[0], c123 = c1 + p->ctot[1] + p->ctot[2];
    const int64_t first = p->all ? 0 : (c1 + p->ctot[1]) * n1 + (c123 - c1) * (n - n1);

    memcpy(q + (p->k + j) * p->ldq, q2 + first + j * n, (size_t)n * sizeof *q);
}
