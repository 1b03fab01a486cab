import Foundation
import FormularyKit
import FormularyRules
import FormularyStore

/// Measures `impact` (``ImpactService``) on the sign-up data set at 1,000,000 entries: the
/// entries are inserted and validated once (the latest results), then a stricter `phone`
/// type (no area code starting with 9) is judged against them, five times in this process;
/// then the same on a database no run has validated (each entry judged twice: with the
/// definitions as they are and with the proposed ones).
///
/// Prints entries/s of each run and the best, against the target of 1,000,000 entries/s.
func runImpactBench(size: Int = 1_000_000) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-impact-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("signup.db").path
    let proposal = folder.appendingPathComponent("phone.field").path
    do {
        try """
        # The bench's proposal: phone numbers whose area code starts with 9 are refused.
        field phone
        label "Phone"
        normalize strip " ()-."
        mask "(000) 000-0000"   message "Phone numbers have 10 digits, e.g. (555) 123-4567"
        pattern /\\([2-8].*/ as area-code   message "Area codes start with 2 to 8"
        accept "5551234567" formats "(555) 123-4567"
        reject "9161234567" area-code
        """.write(toFile: proposal, atomically: true, encoding: .utf8)
        let store = try Store(path: path)
        try store.migrate()
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "bench", source: "bench")
            let layout = try writer.layoutID(for: SignupData.columns)
            var data = SignupData()
            for _ in 0..<size { try writer.add(layoutID: layout, values: data.next().values) }
        }
        let settings = WorkspaceSettings(databasePath: path, pluginFolders: [
            PluginFolder(path: URL(fileURLWithPath: SignupForm.path).deletingLastPathComponent().path, origin: .option)],
            actor: "bench")
        try measureImpact(settings: settings, proposal: proposal, size: size, label: "no run yet")
        let cpu0 = processCPUSeconds()
        let run = try ValidationService(workspace: Workspace(settings: settings)).run(forms: ["signup"], today: SignupForm.today)
        let cpu = processCPUSeconds() - cpu0
        print("impact \(size): validated once for comparison, \(run.run.counts.entriesInvalid) invalid: "
              + "\(Int(Double(size) / run.seconds)) entries/s wall, CPU \(String(format: "%.2f", cpu)) s, "
              + "\(Int(Double(size) / (cpu / cores))) entries/s at CPU ÷ \(Int(cores)) cores")
        try measureImpact(settings: settings, proposal: proposal, size: size, label: "against the latest results")
    } catch {
        print("impact \(size): \(error)")
    }
}

private func measureImpact(settings: WorkspaceSettings, proposal: String, size: Int, label: String) throws {
    var rates: [Int] = []
    var cpuRates: [Int] = []
    for attempt in 1...5 {
        let cpu0 = processCPUSeconds()
        let clock = ContinuousClock()
        var report: ImpactService.Report?
        let elapsed = try clock.measure {
            report = try ImpactService(workspace: Workspace(settings: settings))
                .impact(files: [proposal], today: SignupForm.today) { _ in }
        }
        let cpu = processCPUSeconds() - cpu0
        let r = report!
        let seconds = Timing.seconds(elapsed)
        let rate = Int(Double(r.entriesChecked) / seconds)
        // CPU time leaves out the time other processes held the cores: on a shared, loaded
        // machine it says what the free cores would do.
        let cpuRate = Int(Double(r.entriesChecked) / (cpu / cores))
        rates.append(rate)
        cpuRates.append(cpuRate)
        print("impact \(size) (\(label)) run \(attempt): \(r.entriesChecked) entries in \(String(format: "%.3f", seconds)) s "
              + "= \(rate) entries/s, CPU \(String(format: "%.2f", cpu)) s = \(cpuRate) entries/s at CPU ÷ \(Int(cores)) cores; "
              + "newly failing \(r.newlyFailing), fixed \(r.fixed), unchanged \(r.unchanged), without a result \(r.withoutResult)")
    }
    print("impact \(size) (\(label)) best of 5: \(rates.max()!) entries/s wall (median \(rates.sorted()[2])), "
          + "\(cpuRates.max()!) entries/s at CPU ÷ cores (target ≥ 1000000)")
}

private let cores = Double(ProcessInfo.processInfo.activeProcessorCount)

/// User and system CPU seconds of this process, every thread.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
