using Microsoft.Extensions.Logging;

namespace Notifications.UnitTests;

/// <summary>A logger that keeps every record: level, event id, text, structured values and exception.</summary>
internal sealed class RecordingLogger : ILogger
{
    private readonly Lock _lock = new();
    private readonly List<LogRecord> _records = [];

    public Action? OnRecord { get; set; }

    public IReadOnlyList<LogRecord> Records
    {
        get
        {
            lock (_lock)
            {
                return [.. _records];
            }
        }
    }

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        var values = state as IReadOnlyList<KeyValuePair<string, object?>> ?? [];
        lock (_lock)
        {
            _records.Add(new LogRecord(logLevel, eventId.Id, formatter(state, exception), values.ToDictionary(v => v.Key, v => v.Value), exception));
        }

        OnRecord?.Invoke();
    }
}

/// <summary>One record of <see cref="RecordingLogger"/>.</summary>
internal sealed record LogRecord(LogLevel Level, int EventId, string Message, Dictionary<string, object?> Values, Exception? Exception);
