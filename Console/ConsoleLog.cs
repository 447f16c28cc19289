namespace Notifications.OperatorConsole;

/// <summary>The console's log events (EventIds 7600-7699).</summary>
internal static partial class ConsoleLog
{
    [LoggerMessage(EventId = 7600, Level = LogLevel.Information, Message = "Console listening on {Address}; sign-in: {SignIn}")]
    public static partial void Listening(ILogger logger, string address, string signIn);

    [LoggerMessage(EventId = 7601, Level = LogLevel.Information, Message = "Console: {User} signed in ({Scheme}, role {Role})")]
    public static partial void SignedIn(ILogger logger, string user, string scheme, string role);

    [LoggerMessage(EventId = 7602, Level = LogLevel.Warning, Message = "Console: bootstrap sign-in refused for user {User} (wrong user or password)")]
    public static partial void SignInRefused(ILogger logger, string user);

    [LoggerMessage(EventId = 7603, Level = LogLevel.Information, Message = "Console: {User} ran {Action}: {Outcome}")]
    public static partial void Action(ILogger logger, string user, string action, string outcome);

    [LoggerMessage(EventId = 7604, Level = LogLevel.Warning, Message = "Console: the broker connection for the overview failed: {Reason}")]
    public static partial void BrokerFailed(ILogger logger, string reason);
}
