using System.Globalization;
using Serilog.Events;
using Serilog.Formatting;
using Serilog.Formatting.Display;

namespace Notifications.Shared.Hosting;

/// <summary>One text line per event; an event written inside an Activity (span) also names its trace and span.</summary>
internal sealed class TracedTextFormatter : ITextFormatter
{
    private const string Line = "{Timestamp:HH:mm:ss.fff} {Level:u3} {SourceContext}: {Message:lj}";

    // The same line on every machine, whatever its culture (durations as 12.3 s).
    private readonly MessageTemplateTextFormatter _plain = new(Line + "{NewLine}{Exception}", CultureInfo.InvariantCulture);
    private readonly MessageTemplateTextFormatter _traced = new(Line + " (trace {TraceId} span {SpanId}){NewLine}{Exception}", CultureInfo.InvariantCulture);

    public void Format(LogEvent logEvent, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(logEvent);
        (logEvent.TraceId is null ? _plain : _traced).Format(logEvent, output);
    }
}
