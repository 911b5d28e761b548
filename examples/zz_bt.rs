use fast_poseidon2::instances::{plonky3, sp1};
use std::time::Instant;
fn bench<P: Fn(&mut [[F; T]]), F: Copy + Default, const T: usize>(name: &str, n: usize, reps: usize, p: P) {
    let mut s = vec![[F::default(); T]; n];
    p(&mut s);
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t0 = Instant::now();
        for _ in 0..10 { p(&mut s); }
        let ns = t0.elapsed().as_nanos() as f64 / (10 * n) as f64;
        best = best.min(ns);
    }
    println!("{name:12} {best:7.1} ns/state");
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(64);
    let reps = 40;
    let a = plonky3::ct::babybear_t16(); bench("p3 bb16", n, reps, |s| a.permute_batch(s));
    let b = plonky3::ct::koalabear_t16(); bench("p3 kb16", n, reps, |s| b.permute_batch(s));
    let c = plonky3::ct::babybear_t24(); bench("p3 bb24", n, reps, |s| c.permute_batch(s));
    let d = plonky3::ct::koalabear_t24(); bench("p3 kb24", n, reps, |s| d.permute_batch(s));
    let e = sp1::ct::koalabear_t16(); bench("sp1 kb16", n, reps, |s| e.permute_batch(s));

}
