/// Small timing helpers the suites share.
enum Timing {
    /// The fastest of `runs` timings: the least disturbed by other work on the machine.
    static func fastest(of runs: Int = 3, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        return (0..<runs).map { _ in clock.measure(body) }.min()!
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// `d` in milliseconds: two decimals below 10 ms, whole milliseconds above.
    static func milliseconds(_ d: Duration) -> String {
        let ms = seconds(d) * 1000
        return ms < 10 ? "\(rounded(ms, 2)) ms" : "\(rounded(ms, 0)) ms"
    }

    static func rounded(_ x: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (x * scale).rounded() / scale
        return places == 0 ? String(Int(r)) : String(r)
    }
}
