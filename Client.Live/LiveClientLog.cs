using Microsoft.Extensions.Logging;

namespace Notifications.Client.Live;

/// <summary>The live client's log messages (EventIds 7100-7119).</summary>
internal static partial class LiveClientLog
{
    [LoggerMessage(EventId = 7100, Level = LogLevel.Information, Message = "Live client connected to {Uri}")]
    public static partial void Connected(ILogger logger, Uri uri);

    [LoggerMessage(EventId = 7101, Level = LogLevel.Information, Message = "Live connection ended; reconnecting in {RetryIn}")]
    public static partial void Disconnected(ILogger logger, TimeSpan retryIn, Exception? exception);

    [LoggerMessage(EventId = 7102, Level = LogLevel.Warning, Message = "Live connection attempt {Attempt} failed; next in {RetryIn}")]
    public static partial void ConnectFailed(ILogger logger, int attempt, TimeSpan retryIn, Exception exception);

    [LoggerMessage(EventId = 7103, Level = LogLevel.Warning,
        Message = "The gateway refused the live token ({Reason}), attempt {Attempt}; a fresh token in {RetryIn}")]
    public static partial void Refused(ILogger logger, string reason, int attempt, TimeSpan retryIn);

    [LoggerMessage(EventId = 7104, Level = LogLevel.Debug, Message = "Notification {Id} received again (acked already: {Acked}); not shown again")]
    public static partial void Duplicate(ILogger logger, string id, bool acked);

    [LoggerMessage(EventId = 7105, Level = LogLevel.Debug, Message = "Ack of {Id} not sent (the connection ended); sent again when the gateway replays it")]
    public static partial void AckNotSent(ILogger logger, string id, Exception exception);

    [LoggerMessage(EventId = 7106, Level = LogLevel.Debug, Message = "A frame that is not a notification; skipped")]
    public static partial void FrameSkipped(ILogger logger);

    [LoggerMessage(EventId = 7107, Level = LogLevel.Warning, Message = "A StateChanged handler threw on {State}; the client goes on")]
    public static partial void StateHandlerFailed(ILogger logger, LiveClientState state, Exception exception);

    [LoggerMessage(EventId = 7108, Level = LogLevel.Debug, Message = "The live connection did not close cleanly")]
    public static partial void CloseNotClean(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 7109, Level = LogLevel.Debug, Message = "The gateway's reason for refusing the token could not be read")]
    public static partial void RefusalUnread(ILogger logger, Exception exception);
}
