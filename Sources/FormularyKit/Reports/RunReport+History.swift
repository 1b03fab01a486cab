/// The parts of a report that look beyond the failures of its run: the most frequent failing
/// values, and the recent runs of the same form(s).
extension RunReport {
    /// A failing value and how many failures it had, in a rule or a field.
    package struct ValueCount: Sendable, Hashable {
        /// The value as stored.
        package var value: String
        /// Failures with this value.
        package var count: Int
        /// Makes a value count.
        package init(value: String, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// A run as the report's history of runs shows it.
    package struct RunSummary: Sendable, Hashable {
        /// The run's id.
        package var id: Int64
        /// When it started.
        package var startedAt: String
        /// Its status.
        package var status: String
        /// Entries it judged (of the report's form, when narrowed).
        package var entriesChecked: Int
        /// Entries it found with an error.
        package var entriesFailing: Int
        /// Makes a run summary.
        package init(id: Int64, startedAt: String, status: String, entriesChecked: Int, entriesFailing: Int) {
            self.id = id
            self.startedAt = startedAt
            self.status = status
            self.entriesChecked = entriesChecked
            self.entriesFailing = entriesFailing
        }
        /// The failing share in percent (0 when nothing was checked).
        package var failingPercent: Double {
            entriesChecked == 0 ? 0 : Double(entriesFailing) * 100 / Double(entriesChecked)
        }
    }
}
