import Testing
import FormularyStore
@testable import FormularyKit

/// `validate --max-failing PCT`: which texts are percentages, and the exact comparison.
struct FailureThresholdTests {
    func counts(_ invalid: Int, of checked: Int, warned: Int = 0) -> FormularyKit.RunCounts {
        RunCounts(entriesChecked: checked, entriesInvalid: invalid, entriesWarned: warned, errors: invalid, warnings: warned)
    }

    @Test func readsPercentagesFrom0To100WithDecimals() throws {
        #expect(try FailureThreshold(percent: "0").description == "0")
        #expect(try FailureThreshold(percent: "100").description == "100")
        #expect(try FailureThreshold(percent: "2.5").description == "2.5")
        #expect(try FailureThreshold(percent: "2.50").description == "2.5")
        #expect(try FailureThreshold(percent: "007.25").description == "7.25")
        #expect(try FailureThreshold(percent: "0.000001").description == "0.000001")
        #expect(try FailureThreshold(percent: "100.000").description == "100")
    }

    @Test func refusesWhatIsNoPercentage() {
        for text in ["", "abc", "-1", "+5", "1e2", "5%", " 5", "5 ", ".5", "5.", "1.2.3", "٣", "0x10", "NaN", "inf"] {
            #expect(throws: FailureThreshold.Refusal.notANumber, "'\(text)'") { try FailureThreshold(percent: text) }
        }
        for text in ["100.01", "101", "1000", "99999999999999999999999"] {
            #expect(throws: FailureThreshold.Refusal.above100, "'\(text)'") { try FailureThreshold(percent: text) }
        }
        #expect(throws: FailureThreshold.Refusal.tooManyDecimals) { try FailureThreshold(percent: "1.0000001") }
    }

    @Test func exceededOnlyAboveTheShareExactly() throws {
        let t = try FailureThreshold(percent: "2.5")
        #expect(!t.isExceeded(by: counts(25, of: 1_000)), "exactly 2.5% is not more")
        #expect(t.isExceeded(by: counts(26, of: 1_000)))
        // 0.1 is no exact binary fraction: 1 of 1,000 is exactly 0.1%, not more.
        let tenth = try FailureThreshold(percent: "0.1")
        #expect(!tenth.isExceeded(by: counts(1, of: 1_000)))
        #expect(tenth.isExceeded(by: counts(1, of: 999)))
        // 0: any invalid entry fails, as without a threshold; none does not.
        let zero = try FailureThreshold(percent: "0")
        #expect(zero.isExceeded(by: counts(1, of: 1_000_000)))
        #expect(!zero.isExceeded(by: counts(0, of: 10, warned: 10)), "warnings never count")
        #expect(!(try FailureThreshold(percent: "100")).isExceeded(by: counts(10, of: 10)))
        #expect(!t.isExceeded(by: counts(0, of: 0)), "no entry checked")
        // Past Int's range the comparison still holds (in floating point).
        #expect(try FailureThreshold(percent: "50").isExceeded(by: counts(Int.max / 2, of: Int.max / 2 + 1)))
    }
}
