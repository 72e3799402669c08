//! The two-sided Mann-Whitney U test (Wilcoxon rank-sum), as scipy's
//! `mannwhitneyu(method="auto")` computes it: the exact distribution of U
//! when both samples have at most [`EXACT_MAX`] values and no ties, else the
//! normal approximation with tie and continuity corrections. It compares
//! per-run figures without assuming they are normally distributed.

/// Largest sample for the exact distribution; the counts stay exact in an f64.
pub const EXACT_MAX: usize = 20;

/// The two-sided p-value that samples `a` and `b` come from one distribution.
pub fn p_value(a: &[f64], b: &[f64]) -> f64 {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (u1, ties) = u_statistic(a, b);
    let u = u1.max((n1 * n2) as f64 - u1);
    if n1 <= EXACT_MAX && n2 <= EXACT_MAX && ties.is_empty() {
        (2.0 * exact_at_least(u as usize, n1, n2)).min(1.0)
    } else {
        normal(u, n1, n2, &ties)
    }
}

/// The smallest p-value samples of these sizes can give: below `alpha` or
/// the test can never find a difference, however large.
pub fn smallest_p(n1: usize, n2: usize) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    if n1 <= EXACT_MAX && n2 <= EXACT_MAX {
        (2.0 * exact_at_least(n1 * n2, n1, n2)).min(1.0)
    } else {
        normal((n1 * n2) as f64, n1, n2, &[])
    }
}

/// U of `a` (midranks for ties) and the size of every group of tied values.
fn u_statistic(a: &[f64], b: &[f64]) -> (f64, Vec<usize>) {
    let mut all: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (mut rank_sum, mut ties, mut i) = (0.0, Vec::new(), 0);
    while i < all.len() {
        let j = (i..all.len())
            .find(|&j| all[j].0 != all[i].0)
            .unwrap_or(all.len());
        // Ranks i+1 ..= j share their mean.
        let midrank = (i + 1 + j) as f64 / 2.0;
        rank_sum += midrank * all[i..j].iter().filter(|(_, in_a)| *in_a).count() as f64;
        if j - i > 1 {
            ties.push(j - i);
        }
        i = j;
    }
    let n1 = a.len() as f64;
    (rank_sum - n1 * (n1 + 1.0) / 2.0, ties)
}

/// P(U ≥ u) under the null hypothesis, counting the arrangements of n1 + n2
/// ranks: f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u).
fn exact_at_least(u: usize, n1: usize, n2: usize) -> f64 {
    let max_u = n1 * n2;
    // counts[m][n][k]: arrangements of m and n values with U = k, built up in n.
    let mut previous: Vec<Vec<f64>> = (0..=n1)
        .map(|_| {
            let mut row = vec![0.0; max_u + 1];
            row[0] = 1.0;
            row
        })
        .collect();
    for n in 1..=n2 {
        let mut current = vec![vec![0.0; max_u + 1]; n1 + 1];
        current[0][0] = 1.0;
        for m in 1..=n1 {
            for k in 0..=m * n {
                let from_m = if k >= n { current[m - 1][k - n] } else { 0.0 };
                current[m][k] = from_m + previous[m][k];
            }
        }
        previous = current;
    }
    let counts = &previous[n1];
    let total: f64 = counts.iter().sum();
    counts[u.min(max_u + 1)..].iter().sum::<f64>() / total
}

/// The normal approximation: z with tie and continuity corrections.
fn normal(u: f64, n1: usize, n2: usize, ties: &[usize]) -> f64 {
    let (n1, n2) = (n1 as f64, n2 as f64);
    let n = n1 + n2;
    let tie_term: f64 = ties.iter().map(|&t| (t as f64).powi(3) - t as f64).sum();
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if variance <= 0.0 {
        return 1.0;
    }
    let z = (u - n1 * n2 / 2.0 - 0.5) / variance.sqrt();
    (erfc(z / std::f64::consts::SQRT_2)).min(1.0)
}

/// The complementary error function (W. J. Cody's rational approximations, as
/// in Numerical Recipes' `erfcc` refined: relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() <= 1e-6 * expected.max(1e-3),
            "p = {actual}, expected {expected}"
        );
    }

    // Expected values: scipy.stats.mannwhitneyu(a, b, alternative="two-sided")
    // (method "auto"), scipy 1.17.1.
    /// exact, separated 5 v 5
    #[test]
    fn exact_separated_5_v_5() {
        close(
            p_value(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]),
            0.007936507936507936,
        );
    }

    /// exact, interleaved 5 v 5
    #[test]
    fn exact_interleaved_5_v_5() {
        close(
            p_value(&[1.5, 3.2, 4.8, 7.1, 9.9], &[2.1, 3.9, 5.5, 6.0, 8.3]),
            1.0,
        );
    }

    /// exact, unequal sizes 4 v 7
    #[test]
    fn exact_unequal_sizes_4_v_7() {
        close(
            p_value(
                &[10.1, 12.3, 9.8, 11.0],
                &[13.2, 14.8, 12.9, 15.5, 9.7, 16.1, 14.0],
            ),
            0.07272727272727272,
        );
    }

    /// exact, 3 v 3 cannot go below 0.1
    #[test]
    fn exact_3_v_3_cannot_go_below_01() {
        close(p_value(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]), 0.1);
    }

    /// normal with ties 5 v 5
    #[test]
    fn normal_with_ties_5_v_5() {
        close(
            p_value(
                &[100.0, 100.0, 101.0, 102.0, 103.0],
                &[103.0, 104.0, 104.0, 105.0, 106.0],
            ),
            0.015333162113602824,
        );
    }

    /// normal, 25 v 25
    #[test]
    fn normal_25_v_25() {
        close(
            p_value(
                &[
                    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0,
                    15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0,
                ],
                &[
                    10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5,
                    23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5,
                ],
            ),
            5.909644085596015e-05,
        );
    }

    #[test]
    fn smallest_p_is_that_of_complete_separation() {
        close(smallest_p(3, 3), 0.1);
        close(smallest_p(4, 4), 2.0 / 70.0);
        close(smallest_p(2, 9), 2.0 / 55.0);
    }
}
