using System.Collections.Concurrent;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Console;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Keeps every log record of a worker the test runs, at every level and of every category (the HTTP client's own included):
/// its category, text, structured values and exception as <see cref="Exception.ToString"/> prints it (inner ones too).
/// </summary>
internal sealed class RecordingLoggerProvider : ILoggerProvider
{
    private readonly ConcurrentQueue<string> _lines = new();

    /// <summary>Every record, one string each: what any log sink could write of it.</summary>
    public IReadOnlyList<string> Lines => [.. _lines];

    /// <summary>Adds it to <paramref name="builder"/>'s logging at Trace; the console stays at Warning.</summary>
    public void Install(IHostApplicationBuilder builder) =>
        builder.Logging.AddProvider(this).SetMinimumLevel(LogLevel.Trace).AddFilter<ConsoleLoggerProvider>(null, LogLevel.Warning);

    public ILogger CreateLogger(string categoryName) => new Recorder(categoryName, _lines);

    public void Dispose()
    {
    }

    private sealed class Recorder(string category, ConcurrentQueue<string> lines) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            var values = state as IEnumerable<KeyValuePair<string, object?>> ?? [];
            lines.Enqueue($"{logLevel} {category}[{eventId.Id}] {formatter(state, exception)} | {string.Join("; ", values.Select(v => $"{v.Key}={v.Value}"))} | {exception}");
        }
    }
}
