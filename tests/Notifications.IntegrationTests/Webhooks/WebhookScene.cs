using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Receivers;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// One webhook test's world: a clean database with no endpoints, the broker, a Standard Webhooks receiver that knows the
/// endpoint's secret, and the SQL a business app or an operator would run (endpoints, webhook rows, what was dead-lettered).
/// </summary>
internal sealed class WebhookScene : IAsyncDisposable
{
    private const string Schema = TestDatabase.Schema;

    private WebhookScene(TestDatabase db, TestBroker broker, SmtpSink sink, WebhookReceiver receiver, string secret)
    {
        Db = db;
        Broker = broker;
        Sink = sink;
        Receiver = receiver;
        Secret = secret;
    }

    public TestDatabase Db { get; }

    public TestBroker Broker { get; }

    public SmtpSink Sink { get; }

    public WebhookReceiver Receiver { get; }

    /// <summary>The endpoint's signing secret, which the receiver knows.</summary>
    public string Secret { get; }

    /// <summary>
    /// A clean scene: the broker's queues of <paramref name="queueType"/> with <paramref name="retryDelays"/> (the test broker's
    /// short ones unless given).
    /// </summary>
    public static async Task<WebhookScene> StartAsync(
        IReadOnlyList<string>? receiverSecrets = null, string? secret = null, RabbitQueueType queueType = RabbitQueueType.Classic,
        TimeSpan[]? retryDelays = null)
    {
        var db = await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"DELETE FROM {Schema}.webhook_endpoint");
        }

        secret ??= WebhookRequests.NewSecret();
        var receiver = await WebhookReceiver.StartAsync(receiverSecrets ?? [secret], plainHttp: true);
        return new WebhookScene(db, await TestBroker.CreateAsync(retryDelays: retryDelays, queueType: queueType), await SmtpSink.StartAsync(), receiver, secret);
    }

    /// <summary>Registers <paramref name="name"/> as <c>scripts/admin webhooks add</c> does, with this scene's secret.</summary>
    public async Task AddEndpointAsync(string name, Uri url, bool allowPrivate)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {Schema}.webhook_endpoint (name, url, secret, allow_private) VALUES (@name, @url, @Secret, @allowPrivate)",
            new { name, url = url.ToString(), Secret, allowPrivate });
    }

    /// <summary>Inserts <paramref name="count"/> webhook rows to <paramref name="endpoint"/> as a business app would; returns their ids.</summary>
    public async Task<IReadOnlyList<long>> InsertAsync(string endpoint, int count, string type = "invoice.paid")
    {
        await using var connection = await TestDatabase.OpenAsync();
        var ids = await connection.QueryAsync<long>($$"""
            INSERT INTO {{Schema}}.outbox (channel, recipient, subject, data)
            SELECT 'webhook', @endpoint, @type, '{"invoice": ' || g || ', "amount": {"value": 12.50, "currency": "EUR"}, "note": "caf\u00e9 ☕"}'
            FROM generate_series(1, @count) AS g
            RETURNING id
            """, new { endpoint, type, count });
        return ids.AsList();
    }

    /// <summary>The row as the outbox held it: data and created_at (read before the producer claims it).</summary>
    public async Task<IReadOnlyDictionary<long, (string Data, DateTime CreatedAt)>> RowsAsync(IReadOnlyList<long> ids)
    {
        await using var connection = await TestDatabase.OpenAsync();
        var rows = await connection.QueryAsync<(long Id, string Data, DateTime CreatedAt)>(
            $"SELECT id, data, created_at FROM {Schema}.outbox WHERE id = ANY(@ids)", new { ids = ids.ToArray() });
        return rows.ToDictionary(r => r.Id, r => (r.Data, r.CreatedAt));
    }

    public async Task<IReadOnlyList<string>> DeadLetterReasonsAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<string>($"SELECT reason FROM {Schema}.dead_letter WHERE notification_id = @id", new { id })).AsList();
    }

    public async Task<(DateTime? DisabledAt, string? Reason)> EndpointStateAsync(string name)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleAsync<(DateTime?, string?)>(
            $"SELECT disabled_at, disabled_reason FROM {Schema}.webhook_endpoint WHERE name = @name", new { name });
    }

    /// <summary>Rotates the endpoint's secret to <paramref name="secret"/> as <c>scripts/admin webhooks rotate-secret</c> does.</summary>
    public async Task RotateAsync(string name, string secret)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            UPDATE {Schema}.webhook_endpoint SET previous_secret = secret, secret = @secret, previous_secret_until = now() + interval '1 hour',
                changed_at = clock_timestamp() WHERE name = @name
            """, new { name, secret });
    }

    /// <summary>The deliveries of <paramref name="id"/> the receiver answered 200 to (verified).</summary>
    public IReadOnlyList<WebhookDelivery> Accepted(long id) =>
        Receiver.Deliveries.Where(d => d.Id == Key(id) && d.AnsweredStatus == 200 && d.Verdict.Verified).ToList();

    public static string Key(long id) => id.ToString(System.Globalization.CultureInfo.InvariantCulture);

    public async ValueTask DisposeAsync()
    {
        await Receiver.DisposeAsync();
        await Sink.DisposeAsync();
        await Broker.DisposeAsync();
    }
}
