using Serilog.Core;
using Serilog.Events;
using Serilog.Formatting;

namespace Notifications.UnitTests.Hosting;

/// <summary>Writes each event with a formatter into a string, as the console sink writes it to stdout.</summary>
internal sealed class FormattingSink(ITextFormatter formatter) : ILogEventSink
{
    private readonly StringWriter _output = new();

    public string Output => _output.ToString();

    public void Emit(LogEvent logEvent) => formatter.Format(logEvent, _output);
}
