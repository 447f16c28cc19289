using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Email;

/// <summary>Log messages of the email senders (EventIds 3000-3099).</summary>
internal static partial class SendingLog
{
    [LoggerMessage(3000, LogLevel.Information, "Connected to SMTP server {Host}:{Port} (TLS: {Encrypted}; extensions: {Extensions})")]
    public static partial void Connected(ILogger logger, string host, int port, bool encrypted, string extensions);

    [LoggerMessage(3001, LogLevel.Information, "Reconnecting to SMTP server {Host}:{Port} after a failure")]
    public static partial void Reconnecting(ILogger logger, string host, int port);

    [LoggerMessage(3002, LogLevel.Warning, "Dropped the connection to SMTP server {Host}:{Port} during {Step}; the next send reconnects")]
    public static partial void ConnectionDropped(ILogger logger, string host, int port, string step, Exception? exception);

    [LoggerMessage(3003, LogLevel.Debug, "The idle connection to SMTP server {Host}:{Port} was closed by the server or failed its NOOP; reconnecting")]
    public static partial void IdleConnectionClosed(ILogger logger, string host, int port);

    // A relay closes idle sessions (Postfix after 300 s): expected, so Debug, counted by notifications.smtp.idle_reconnects.
    [LoggerMessage(4120, LogLevel.Debug, "The idle connection to SMTP server {Host}:{Port} failed its NOOP ({Reason}); reconnecting")]
    public static partial void IdleNoOpFailed(ILogger logger, string host, int port, string reason);

    [LoggerMessage(3004, LogLevel.Debug, "QUIT to SMTP server {Host}:{Port} failed; closing anyway")]
    public static partial void QuitFailed(ILogger logger, string host, int port, Exception exception);

    [LoggerMessage(3006, LogLevel.Information, "SMTP server {Host}:{Port} does not offer STARTTLS; sending in clear text (Smtp:Security is StartTlsWhenAvailable)")]
    public static partial void StartTlsNotOffered(ILogger logger, string host, int port);
}
