import CommandSupport
import Testing
import VODAppBase
import VODAppMediaDirectory
import VODAppMQTT
import VODAppPayload

/// What a command ends with, for errors of several libraries: each says its own line and status
/// (`ExitStatusProviding`), and `CommandFailure` needs to know none of their types.
@Suite struct CommandFailureTests {
    @Test func eachLibrarysErrorEndsACommandWithItsLineAndStatus() throws {
        let cases: [(any Error, String, VODAppBase.ExitStatus)] = [
            (PayloadError.notUTF8, "invalid payload: " + PayloadError.notUTF8.description, .invalidPayload),
            (MediaDirectoryError.directoryUnusable(path: "/v", reason: "Read-only file system"),
             "cannot use /v for media: Read-only file system", .directoryUnusable),
            (MediaDirectoryError.tooManyOpenFiles("/v/.vodapp/locks"), MediaDirectoryError.tooManyOpenFiles("/v/.vodapp/locks").description,
             .temporaryFailure),
            (BrokerError.credentialsRefused(broker: "mqtt://b", reason: "not authorized"),
             BrokerError.credentialsRefused(broker: "mqtt://b", reason: "not authorized").description, .credentialsRejected),
            (BrokerError.subscriptionRefused(broker: "mqtt://b", topic: "t"),
             BrokerError.subscriptionRefused(broker: "mqtt://b", topic: "t").description, .unavailable),
            (BrokerURLError.noTopic, BrokerURLError.noTopic.description, .usage),
        ]
        for (error, line, status) in cases {
            let failure = try #require(CommandFailure(error), "\(error)")
            #expect(failure.message == line)
            #expect(failure.status == status, "\(error)")
        }
    }

    @Test func theSubjectLeadsTheLineAndOtherErrorsAreNotALibrarys() throws {
        let failure = try #require(CommandFailure(BrokerURLError.noTopic, about: "mqtt://b"))
        #expect(failure.message == "mqtt://b: " + BrokerURLError.noTopic.description)
        struct Foreign: Error {}
        #expect(CommandFailure(Foreign()) == nil)
    }
}
