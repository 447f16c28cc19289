using Microsoft.Extensions.Configuration;
using Serilog.Formatting;
using Serilog.Formatting.Compact;

namespace Notifications.Shared.Hosting;

/// <summary>The console formats <c>Logging:Format</c> chooses between.</summary>
internal static class LogFormats
{
    /// <summary>
    /// <c>json</c>: compact JSON (CLEF), one object per line with <c>@t</c>, <c>@mt</c>, <c>@l</c>, <c>@x</c>, the
    /// trace and span ids as <c>@tr</c>/<c>@sp</c> and every property; anything else: one text line per event.
    /// </summary>
    public static ITextFormatter For(IConfiguration configuration) =>
        string.Equals(configuration["Logging:Format"], "json", StringComparison.OrdinalIgnoreCase)
            ? new CompactJsonFormatter()
            : new TracedTextFormatter();
}
