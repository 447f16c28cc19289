using System.Net.Sockets;
using MailKit.Net.Smtp;
using MailKit.Security;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

public sealed class SmtpFailuresTests
{
    private static readonly SmtpOptions Options = new();

    [Theory]
    [InlineData(SmtpErrorCode.RecipientNotAccepted, 450, false)]
    [InlineData(SmtpErrorCode.SenderNotAccepted, 421, false)]
    [InlineData(SmtpErrorCode.RecipientNotAccepted, 550, true)]
    [InlineData(SmtpErrorCode.MessageNotAccepted, 554, true)]
    [InlineData(SmtpErrorCode.MessageNotAccepted, 451, false)]
    public void Classify_ReplyToTransaction_KindFollowsReplyClass(SmtpErrorCode error, int code, bool permanent)
    {
        SendFailureKind expected = permanent ? SendFailureKind.Permanent : SendFailureKind.Transient;
        var refusal = new SmtpCommandException(error, (SmtpStatusCode)code, "4.3.0 refused");

        SmtpSendException failure = Classify(refusal, inTransaction: true, finalDataWritten: code == 554);

        Assert.Equal(expected, failure.Kind);
        Assert.Equal(code, failure.ReplyCode);
        Assert.Contains($"{code} 4.3.0 refused", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Classify_FiveHundredBeforeTransaction_TransientNotTheMessagesFault()
    {
        var refusal = new SmtpCommandException(SmtpErrorCode.UnexpectedStatusCode, SmtpStatusCode.AuthenticationInvalidCredentials, "bad credentials");

        Assert.Equal(SendFailureKind.Transient, Classify(refusal, inTransaction: false, finalDataWritten: false).Kind);
    }

    [Theory]
    [MemberData(nameof(ConnectionFailures))]
    public void Classify_ConnectionLostAfterFinalData_Unknown(Exception lost)
    {
        SmtpSendException failure = Classify(lost, inTransaction: true, finalDataWritten: true);

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
        Assert.Null(failure.ReplyCode);
        Assert.Same(lost, failure.InnerException);
    }

    [Theory]
    [MemberData(nameof(ConnectionFailures))]
    public void Classify_ConnectionLostBeforeFinalData_Transient(Exception lost)
    {
        Assert.Equal(SendFailureKind.Transient, Classify(lost, inTransaction: true, finalDataWritten: false).Kind);
        Assert.Equal(SendFailureKind.Transient, Classify(lost, inTransaction: false, finalDataWritten: false).Kind);
    }

    [Fact]
    public void Classify_CallerCancelledBeforeFinalData_RethrowsCancellation()
    {
        Assert.Null(SmtpFailures.Classify(new OperationCanceledException(), true, false, callerCancelled: true, Options));
        Assert.Null(SmtpFailures.Classify(new OperationCanceledException(), false, false, callerCancelled: true, Options));
    }

    [Fact]
    public void Classify_CallerCancelledAfterFinalData_Unknown()
    {
        SmtpSendException failure = (SmtpSendException)SmtpFailures.Classify(
            new OperationCanceledException(), true, finalDataWritten: true, callerCancelled: true, Options)!;

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
        Assert.Contains("cancelled by the caller", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Classify_OwnRefusal_PassesThrough()
    {
        var refusal = new SmtpSendException(SendFailureKind.Permanent, null, "too big");

        Assert.Null(SmtpFailures.Classify(refusal, true, false, false, Options));
    }

    [Fact]
    public void Classify_ExtensionMissingForMessage_Permanent()
    {
        Assert.Equal(SendFailureKind.Permanent, Classify(new NotSupportedException("8BITMIME"), inTransaction: true, finalDataWritten: false).Kind);
    }

    [Fact]
    public void Classify_TimeoutWithoutCaller_NamesTheOption()
    {
        SmtpSendException connect = Classify(new OperationCanceledException(), inTransaction: false, finalDataWritten: false);
        SmtpSendException command = Classify(new TimeoutException(), inTransaction: true, finalDataWritten: false);

        Assert.Contains("Smtp:ConnectTimeout", connect.Message, StringComparison.Ordinal);
        Assert.Contains("Smtp:CommandTimeout", command.Message, StringComparison.Ordinal);
    }

    public static TheoryData<Exception> ConnectionFailures() => new()
    {
        new IOException("reset"),
        new SocketException((int)SocketError.ConnectionReset),
        new SmtpProtocolException("The SMTP server has unexpectedly disconnected."),
        new TimeoutException(),
        new OperationCanceledException(),
        new SslHandshakeException("untrusted"),
    };

    private static SmtpSendException Classify(Exception e, bool inTransaction, bool finalDataWritten) =>
        Assert.IsType<SmtpSendException>(SmtpFailures.Classify(e, inTransaction, finalDataWritten, callerCancelled: false, Options));
}
