import Foundation
import FormularyKit
import FormularyRules

/// `bench/signup.form`, the form the sign-up data set (``SignupData``) is judged with.
enum SignupForm {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("signup.form").path

    /// The "today" the data set must be judged against.
    static let today = CivilDate(year: SignupData.today.year, month: SignupData.today.month, day: SignupData.today.day)

    /// `bench/unique/signup.form`: the same form with `unique email` (a folder of its own, so
    /// that `--plugins bench` still finds one form `signup`).
    static let uniquePath = URL(fileURLWithPath: path).deletingLastPathComponent()
        .appendingPathComponent("unique").appendingPathComponent("signup.form").path

    /// The built-in types and the form (with `unique`: the variant), as a registry.
    static func registry(unique: Bool = false) throws -> Registry {
        let path = unique ? uniquePath : path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return Registry(files: Registry.builtinFiles + [
            PluginFile(path: path, bytes: Array(text.utf8), source: .folder(PluginFolder(path: "bench", origin: .option)))])
    }
}
