/// The parts of a report that look beyond the failures of its run: the most frequent failing
/// values, and the recent runs of the same form(s).
extension RunReport {
    /// A failing value and how many failures it had, in a rule or a field.
    public struct ValueCount: Sendable, Hashable {
        /// The value as stored.
        public var value: String
        /// Failures with this value.
        public var count: Int
        /// Makes a value count.
        public init(value: String, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// A run as the report's history of runs shows it.
    public struct RunSummary: Sendable, Hashable {
        /// The run's id.
        public var id: Int64
        /// When it started.
        public var startedAt: String
        /// Its status.
        public var status: String
        /// Entries it judged (of the report's form, when narrowed).
        public var entriesChecked: Int
        /// Entries it found with an error.
        public var entriesFailing: Int
        /// Makes a run summary.
        public init(id: Int64, startedAt: String, status: String, entriesChecked: Int, entriesFailing: Int) {
            self.id = id
            self.startedAt = startedAt
            self.status = status
            self.entriesChecked = entriesChecked
            self.entriesFailing = entriesFailing
        }
        /// The failing share in percent (0 when nothing was checked).
        public var failingPercent: Double {
            entriesChecked == 0 ? 0 : Double(entriesFailing) * 100 / Double(entriesChecked)
        }
    }
}
