using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Templates;

/// <summary>Log messages of template rendering (EventIds 4200-4219).</summary>
internal static partial class TemplateLog
{
    [LoggerMessage(4200, LogLevel.Debug, "Template '{Name}' read: {Locales} locale(s), {Parsed} version(s) parsed anew")]
    public static partial void Loaded(ILogger logger, string name, int locales, int parsed);

    [LoggerMessage(4201, LogLevel.Warning, "Template version does not parse; notifications rendered with it are dead-lettered: {Reason}")]
    public static partial void ParseFailed(ILogger logger, string reason);

    [LoggerMessage(4202, LogLevel.Warning, "Template '{Name}' could not be read from the database; the notification will be retried")]
    public static partial void LoadFailed(ILogger logger, string name, Exception exception);
}
