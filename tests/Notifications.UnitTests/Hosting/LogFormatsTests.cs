using System.Diagnostics;
using System.Text.Json;
using Microsoft.Extensions.Configuration;
using Notifications.Shared;
using Notifications.Shared.Hosting;
using Serilog;
using Serilog.Extensions.Logging;

namespace Notifications.UnitTests.Hosting;

/// <summary>
/// Both console formats, fed the way a worker feeds them: a [LoggerMessage] through Microsoft.Extensions.Logging
/// into Serilog. An event written inside an Activity carries its trace and span ids; one outside carries none.
/// </summary>
public sealed class LogFormatsTests
{
    [Fact]
    public void Json_EventInsideActivity_HasTraceAndSpanIds()
    {
        using var activity = new Activity("claim batch").Start();

        using var json = JsonDocument.Parse(Write("json"));

        Assert.Equal(activity.TraceId.ToHexString(), json.RootElement.GetProperty("@tr").GetString());
        Assert.Equal(activity.SpanId.ToHexString(), json.RootElement.GetProperty("@sp").GetString());
        Assert.Equal("Connected to RabbitMQ at {Host}:{Port} (attempt {Attempt})", json.RootElement.GetProperty("@mt").GetString());
        Assert.Equal("broker.example", json.RootElement.GetProperty("Host").GetString());
    }

    [Fact]
    public void Json_EventOutsideActivity_HasNoTraceIds()
    {
        Assert.Null(Activity.Current);

        using var json = JsonDocument.Parse(Write("json"));

        Assert.False(json.RootElement.TryGetProperty("@tr", out _));
        Assert.False(json.RootElement.TryGetProperty("@sp", out _));
    }

    [Fact]
    public void Text_EventInsideActivity_NamesTraceAndSpan()
    {
        using var activity = new Activity("claim batch").Start();

        string line = Write("text");

        Assert.Contains($"Connected to RabbitMQ at broker.example:5672 (attempt 1) (trace {activity.TraceId.ToHexString()} span {activity.SpanId.ToHexString()})", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Text_EventOutsideActivity_EndsWithTheMessage()
    {
        Assert.Null(Activity.Current);

        string line = Write("text");

        Assert.EndsWith($"INF Notifications.UnitTests: Connected to RabbitMQ at broker.example:5672 (attempt 1){Environment.NewLine}", line, StringComparison.Ordinal);
    }

    private static string Write(string format)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["Logging:Format"] = format }).Build();
        var sink = new FormattingSink(LogFormats.For(configuration));
        using (var factory = new SerilogLoggerFactory(new LoggerConfiguration().WriteTo.Sink(sink).CreateLogger(), dispose: true))
        {
            SharedLog.BrokerConnected(factory.CreateLogger("Notifications.UnitTests"), "broker.example", 5672, 1);
        }

        return sink.Output;
    }
}
