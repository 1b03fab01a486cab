import Foundation
import Testing
@testable import FormularyKit

struct DemoFilesTests {
    /// The embedded copies `formulary demo` uses must equal demo/ byte for byte: a sample
    /// edited without `make embed` fails here (as the built-in types do in the rules' tests).
    @Test func embeddedDemoFilesEqualTheDemoFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("demo")
        #expect(DemoFiles.files.map(\.name) == ["signup.form", "signup-sample.csv"])
        for file in DemoFiles.files {
            let onDisk = try Data(contentsOf: folder.appendingPathComponent(file.name))
            #expect(Array(onDisk) == Array(file.text.utf8), "\(file.name) differs from its embedded copy: run make embed")
        }
    }
}
