#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `formulary serve` against clients that trickle a request's head (its line and headers)
/// a byte at a time: each byte comes well within the idle timeout, so only a deadline on
/// the whole head cuts them, and enough of them from a few addresses must not take every
/// connection slot.
@Suite(.serialized) struct ServeSlowClientTests {
    typealias Fixture = ServeAbuseTests.Fixture

    /// Seconds since `start`, on the monotonic clock.
    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Sends `first`, then one byte of `filler` every 100 ms, until the server hangs up or
    /// `limit` seconds have passed since `start`; the seconds it took, or nil when the
    /// connection was still open at the end.
    static func trickle(_ connection: HTTPConnection, first: String, from start: UInt64, limit: Double) -> Double? {
        guard connection.send(first) else { return seconds(since: start) }
        while seconds(since: start) < limit {
            if !connection.send("a") || connection.isClosedByServer(waiting: false) { return seconds(since: start) }
            usleep(100_000)
        }
        return nil
    }

    @Test(arguments: ["GET /v1/types/", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "])
    func aTrickledHeadIsCutAtTheTimeoutFromTheConnectionsStart(first: String) throws {
        let fixture = try Fixture(timeout: 2)
        let start = DispatchTime.now().uptimeNanoseconds
        let slow = try fixture.connect()
        let cut = Self.trickle(slow, first: first, from: start, limit: 6)
        #expect(cut != nil, "a head trickled for 6 s under --timeout 2 was not cut")
        if let cut {
            #expect(cut > 1.5 && cut < 3.0, "cut after \(cut) s, not at about the 2 s timeout")
        }
        #expect(try fixture.connect().exchange("GET", "/healthz").status == 200)
        #expect(fixture.server.stop() == 0)
    }

    @Test func theNextHeadOnAKeptConnectionCountsFromThePreviousAnswer() throws {
        let fixture = try Fixture(timeout: 2)
        let connection = try fixture.connect()
        // An answer a second in, then the next head trickled: its deadline starts when the
        // answer went out, not when the connection opened.
        usleep(1_000_000)
        #expect(try connection.exchange("GET", "/healthz").status == 200)
        let start = DispatchTime.now().uptimeNanoseconds
        let cut = Self.trickle(connection, first: "GET /healthz HTTP/1.1\r\nX-Slow: ", from: start, limit: 6)
        #expect(cut != nil, "the second head trickled for 6 s was not cut")
        if let cut { #expect(cut > 1.5 && cut < 3.0, "cut \(cut) s after the first answer") }
        #expect(fixture.server.stop() == 0)
    }

    @Test func slowClientsFromSixteenAddressesLeaveRoomForAnother() throws {
        let fixture = try Fixture(timeout: 8)
        // As many slow connections as sixteen addresses can open, each with half a head:
        // before the limits changed, 16 × 256 of them filled all 4,096 slots.
        var slow: [HTTPConnection] = []
        for address in 1...16 {
            for _ in 0..<256 {
                guard let connection = try? fixture.connect(from: "127.0.1.\(address)", receiveTimeout: 15) else { continue }
                connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
                slow.append(connection)
            }
        }
        // A byte more on each, so that none is idle while another client asks.
        let open = slow.filter { $0.send("a") && !$0.isClosedByServer(waiting: false) }
        #expect(open.count > 1_000, "only \(open.count) slow connections are open: the test holds too few")
        let other = try fixture.connect(from: "127.0.2.1", receiveTimeout: 2)
        let answer = try? other.exchange("GET", "/healthz")
        #expect(answer?.status == 200, "a client from another address was shut out by \(open.count) slow ones")
        // The slow ones are cut at the deadline, 8 s from their start (the receive timeout
        // is longer).
        #expect(open.first?.isClosedByServer() == true)
        #expect(open.last?.isClosedByServer() == true)
        slow.removeAll()
        #expect(try fixture.connect(from: "127.0.1.1").exchange("GET", "/healthz").status == 200)
        #expect(fixture.server.stop() == 0)
    }
}
