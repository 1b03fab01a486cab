import Foundation
@testable import FormularyStore

/// A fresh folder for one test's database files, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("formulary-store-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// The repository's root, found from this file's location (Tests/FormularyStoreTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A database at `path` with every embedded migration applied.
func migratedDatabase(_ path: String) throws -> Database {
    let db = try Database(path: path)
    try Migrator().migrate(db)
    return db
}
