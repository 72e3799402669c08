//! Welch's unequal-variances t-test on the logarithms of the per-run values
//! (ln(1 + v)): timings change by ratios and are skewed, and on the log scale
//! a ratio is a shift. With the few runs a benchmark has (5 to 30 a side) a
//! rank test cannot reach the p-values a correction over hundreds of cells
//! asks for (5 against 5 runs never goes below p = 0.008), where this one can;
//! hyperfine's and criterion's comparisons are t-tests too.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// The two-sided p-value that `a` and `b` come from distributions with the
/// same mean log value; `None` when a side has fewer than two runs.
pub fn p_value(a: &[f64], b: &[f64]) -> Option<f64> {
    let (mean_a, var_a) = moments(a)?;
    let (mean_b, var_b) = moments(b)?;
    let (se_a, se_b) = (var_a / a.len() as f64, var_b / b.len() as f64);
    let se = se_a + se_b;
    if se == 0.0 {
        // Every run of each side identical: a difference is certain, no difference is none.
        return Some(if mean_a == mean_b { 1.0 } else { 0.0 });
    }
    let t = (mean_b - mean_a) / se.sqrt();
    // Welch–Satterthwaite degrees of freedom.
    let df = se * se / (se_a * se_a / (a.len() - 1) as f64 + se_b * se_b / (b.len() - 1) as f64);
    let student = StudentsT::new(0.0, 1.0, df).ok()?;
    Some((2.0 * student.sf(t.abs())).min(1.0))
}

/// Mean and sample variance of ln(1 + v); `None` below two values.
fn moments(values: &[f64]) -> Option<(f64, f64)> {
    if values.len() < 2 {
        return None;
    }
    let logs: Vec<f64> = values.iter().map(|v| v.max(0.0).ln_1p()).collect();
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let variance = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some((mean, variance))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy.stats.ttest_ind(np.log1p(a), np.log1p(b), equal_var=False).pvalue
    #[test]
    fn p_values_match_scipy() {
        let cases: [(&[f64], &[f64], f64); 3] = [
            (
                &[100.0, 102.0, 98.0, 101.0, 99.0],
                &[300.0, 306.0, 294.0, 303.0, 297.0],
                5.252302463631611e-14,
            ),
            (&[10.0, 11.0, 12.0, 13.0], &[10.5, 12.5, 11.0, 14.0, 15.0, 9.0], 0.7394371363338123),
            (
                &[50.0, 52.0, 49.0, 51.0, 50.5, 49.5, 50.2],
                &[53.0, 54.5, 52.0, 55.0, 53.5, 52.5, 54.0],
                8.817264704803841e-05,
            ),
        ];
        for (a, b, want) in cases {
            let got = p_value(a, b).unwrap();
            assert!((got - want).abs() <= 1e-9 * want.max(1e-300) + 1e-15, "{got} vs {want}");
        }
    }

    #[test]
    fn one_run_a_side_gives_no_p_value_and_identical_runs_are_certain() {
        assert_eq!(p_value(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(p_value(&[5.0, 5.0], &[5.0, 5.0]), Some(1.0));
        assert_eq!(p_value(&[5.0, 5.0], &[6.0, 6.0]), Some(0.0));
    }
}
