using Microsoft.Extensions.Logging;

namespace Notifications.Client;

/// <summary>The client's log messages (EventIds 7000-7099).</summary>
internal static partial class ClientLog
{
    [LoggerMessage(EventId = 7000, Level = LogLevel.Warning,
        Message = "Template variables are not checked at enqueue in schema {Schema}: the template table cannot be read ({Error}). Grant the app's role SELECT on template(name, locale, version, variables) (repeatable/90_roles.sql) and migrate to 024; docs/templates.md")]
    public static partial void TemplateCheckSkipped(ILogger logger, string schema, string error);
}
