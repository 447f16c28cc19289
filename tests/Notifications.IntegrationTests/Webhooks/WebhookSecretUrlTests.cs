using System.Net;
using System.Net.Sockets;
using Dapper;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// An endpoint's URL can be a secret (chat webhooks carry their token in the path, others in the query): whatever goes
/// wrong, no log line (any level, any category, exceptions included), dead letter (table and queue), delivery log row,
/// endpoint disable reason or status answer (what <c>admin show</c> prints) carries it. They name the endpoint and its host.
/// </summary>
[Collection("services")]
public sealed class WebhookSecretUrlTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task UrlWithATokenFailingEveryWay_TheTokenInNoLogDeadLetterOrStatus(string mode)
    {
        string token = "tok" + Guid.NewGuid().ToString("N");
        string secretPart = $"services/T0001/B0002/{token}?token={token}";
        await using var scene = await WebhookScene.StartAsync();
        await using var hanging = await WebhookReceiver.StartAsync([scene.Secret], plainHttp: true);
        hanging.Script.Always(ScriptedAnswer.Never);
        await using var notFound = await CountingServer.StartAsync(HttpStatusCode.NotFound, echoPath: true);
        await using var failing = await CountingServer.StartAsync(HttpStatusCode.InternalServerError, echoPath: true);
        await using var gone = await CountingServer.StartAsync(HttpStatusCode.Gone, echoPath: true);
        var endpoints = new (string Name, Uri Url, bool AllowPrivate)[]
        {
            ("refused", new Uri($"http://127.0.0.1:{ClosedPort()}/{secretPart}"), true),
            ("hanging", new Uri(hanging.PlainUrl!, "/" + secretPart), true),
            ("not-found", new Uri(notFound.BaseAddress, secretPart), true),
            ("failing", new Uri(failing.BaseAddress, secretPart), true),
            ("gone", new Uri(gone.BaseAddress, secretPart), true),
            ("private", new Uri($"https://localhost:{ClosedPort()}/{secretPart}"), false),
            // Not a URL an admin could register (plain http to a host that is not loopback): refused before any send.
            ("invalid", new Uri($"http://hooks.partner.test/{secretPart}"), false),
        };
        var ids = new List<long>();
        foreach (var (name, url, allowPrivate) in endpoints)
        {
            await scene.AddEndpointAsync(name, url, allowPrivate);
            ids.Add((await scene.InsertAsync(name, 1))[0]);
        }

        var logs = new RecordingLoggerProvider();
        await using (var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, logs.Install,
            ("Consumer:DeliveryMode", mode), ("Webhooks:Timeout", "00:00:01")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => SettledAsync(scene, consumer, ids), settled => settled, Patience, "every webhook settled");
        }

        var deadLetters = await scene.Broker.DrainDeadLettersAsync();
        Assert.NotEmpty(deadLetters);
        var reasons = await TextsAsync("SELECT reason FROM {0}.dead_letter");
        // Whole rows (every column, those added later too), but of webhook_endpoint only what it says about a disable: the
        // table itself holds the URL, as it holds the secrets.
        var stored = await TextsAsync("SELECT row_to_json(d)::text FROM {0}.dead_letter d");
        stored = [.. stored
            .Concat(deadLetters.Select(d => d.Reason))
            .Concat(await TextsAsync("SELECT row_to_json(l)::text FROM {0}.delivery_log l"))
            .Concat(await TextsAsync("SELECT concat_ws(' ', name, disabled_reason) FROM {0}.webhook_endpoint"))
            .Concat(await TextsAsync($"SELECT row_to_json(s)::text FROM unnest(@ids) AS i(id), {{0}}.notification_status(i.id) AS s", new { ids = ids.ToArray() }))];
        Assert.All(stored, text => Assert.DoesNotContain(token, text, StringComparison.Ordinal));
        Assert.NotEmpty(logs.Lines);
        Assert.All(logs.Lines, line => Assert.DoesNotContain(token, line, StringComparison.Ordinal));
        // What they say instead: the endpoint's name and host.
        Assert.Contains(reasons, r => r.Contains("'not-found' (127.0.0.1)", StringComparison.Ordinal) && r.Contains("answered 404", StringComparison.Ordinal));
    }

    // Each id dead-lettered or (at most once, outcome unknown) marked; nothing left in a queue or a handler.
    private static async Task<bool> SettledAsync(WebhookScene scene, WorkerHost consumer, IReadOnlyList<long> ids)
    {
        await using var connection = await TestDatabase.OpenAsync();
        long settled = await connection.ExecuteScalarAsync<long>($"""
            SELECT count(*) FROM unnest(@ids) AS i(id)
            WHERE EXISTS (SELECT 1 FROM {TestDatabase.Schema}.dead_letter d WHERE d.notification_id = i.id)
               OR EXISTS (SELECT 1 FROM {TestDatabase.Schema}.delivery_log l WHERE l.notification_id = i.id)
            """, new { ids = ids.ToArray() });
        var busy = (await scene.Broker.NonEmptyQueuesAsync()).Keys.Where(q => q != scene.Broker.Options.DeadLetterQueue);
        return settled == ids.Count && !busy.Any() && consumer.Get<ConsumerMetrics>().InFlight == 0;
    }

    private static async Task<IReadOnlyList<string>> TextsAsync(string sql, object? parameters = null)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<string>(string.Format(System.Globalization.CultureInfo.InvariantCulture, sql, TestDatabase.Schema), parameters)).AsList();
    }

    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
