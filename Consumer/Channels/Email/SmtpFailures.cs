using System.Net.Sockets;
using MailKit;
using MailKit.Net.Smtp;
using MailKit.Security;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// What a MailKit exception means for the message (<see cref="SendFailureKind"/>). A reply code speaks for
/// itself; a lost connection, a timeout or a cancellation depends on whether the final data had been
/// written. Everything before the transaction (connect, EHLO, STARTTLS, AUTH) is the server's or the
/// configuration's fault, never the message's, so it is Transient even when the server said 5xx.
/// </summary>
internal static class SmtpFailures
{
    /// <summary>
    /// The exception to throw for <paramref name="e"/>; null when <paramref name="e"/> itself is to be rethrown:
    /// the caller cancelled before the final data went out (nothing was sent), or it is not a sending failure.
    /// </summary>
    public static Exception? Classify(Exception e, bool inTransaction, bool finalDataWritten, bool callerCancelled, SmtpOptions options)
    {
        ArgumentNullException.ThrowIfNull(e);
        ArgumentNullException.ThrowIfNull(options);
        if (e is SmtpSendException)
        {
            return null;
        }

        if (e is SmtpCommandException command)
        {
            int code = (int)command.StatusCode;
            string text = $"{Step(command, inTransaction)}: {code} {command.Message}";
            bool permanent = inTransaction && code is >= 500 and < 600;
            return new SmtpSendException(permanent ? SendFailureKind.Permanent : SendFailureKind.Transient, code, text, e);
        }

        if (inTransaction && finalDataWritten)
        {
            return new SmtpSendException(SendFailureKind.Unknown, null,
                $"Lost after the final '.' and before the server's reply ({Cause(e, callerCancelled, inTransaction, options)}): "
                + "the message may or may not have been accepted.", e);
        }

        if (e is OperationCanceledException && callerCancelled)
        {
            return null;
        }

        if (inTransaction && e is NotSupportedException)
        {
            // MailKit: the message needs an extension the server lacks (SMTPUTF8 without 8BITMIME).
            return new SmtpSendException(SendFailureKind.Permanent, null, $"SMTP send refused by the client: {e.Message}", e);
        }

        return IsSessionFailure(e)
            ? new SmtpSendException(SendFailureKind.Transient, null,
                $"SMTP {(inTransaction ? "transaction" : "session setup")} failed: {Cause(e, callerCancelled, inTransaction, options)}", e)
            : null;
    }

    /// <summary>Failures of the connection or session rather than of the message.</summary>
    public static bool IsSessionFailure(Exception e) =>
        e is IOException or SocketException or OperationCanceledException or TimeoutException
            or SmtpProtocolException or SmtpCommandException or ServiceNotConnectedException or ServiceNotAuthenticatedException
            or AuthenticationException or SslHandshakeException or System.Security.Authentication.AuthenticationException
            or NotSupportedException or ObjectDisposedException;

    private static string Step(SmtpCommandException e, bool inTransaction) => !inTransaction
        ? "session setup"
        : e.ErrorCode switch
        {
            SmtpErrorCode.SenderNotAccepted => "MAIL FROM",
            SmtpErrorCode.RecipientNotAccepted => "RCPT TO",
            SmtpErrorCode.MessageNotAccepted => "DATA",
            _ => "SMTP",
        };

    private static string Cause(Exception e, bool callerCancelled, bool inTransaction, SmtpOptions options) => e switch
    {
        OperationCanceledException when callerCancelled => "cancelled by the caller",
        OperationCanceledException when !inTransaction => $"timed out (Smtp:ConnectTimeout {options.ConnectTimeout})",
        OperationCanceledException or TimeoutException => $"timed out (Smtp:CommandTimeout {options.CommandTimeout})",
        _ => e.Message,
    };
}
