/// Where reports go.
package enum ReportFile {
    /// The default name of a run's HTML report, in the current folder.
    package static func defaultHTMLName(run: Int64) -> String {
        "formulary-report-run-\(run).html"
    }

    /// Writes a report file whole or not at all (see ``OutputFile/write(_:to:)``).
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        try OutputFile.write(bytes, to: path)
    }
}
