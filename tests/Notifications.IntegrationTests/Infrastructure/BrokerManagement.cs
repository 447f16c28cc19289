using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Notifications.Shared.Messaging;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// The broker's management HTTP API (<see cref="TestServices.RabbitMqManagementUri"/>: port 15672 of
/// scripts/setup's broker, or the broker container's; same user as the AMQP endpoint, an administrator):
/// private vhosts, connection limits, forced closes and policies.
/// </summary>
internal sealed class BrokerManagement : IDisposable
{
    private readonly HttpClient _http;
    private readonly string _user;

    private BrokerManagement(HttpClient http, string user)
    {
        _http = http;
        _user = user;
    }

    public static BrokerManagement Create()
    {
        var amqp = TestServices.RabbitMqUri;
        string user = Uri.UnescapeDataString(amqp.UserInfo.Split(':')[0]);
        var http = new HttpClient { BaseAddress = TestServices.RabbitMqManagementUri, Timeout = TimeSpan.FromSeconds(30) };
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(Uri.UnescapeDataString(amqp.UserInfo))));
        return new BrokerManagement(http, user);
    }

    /// <summary>Creates the vhost with full permissions for the test user; returns its AMQP URI.</summary>
    public async Task<Uri> CreateVhostAsync(string vhost)
    {
        await SendAsync(HttpMethod.Put, $"api/vhosts/{Escape(vhost)}", new { });
        await SendAsync(HttpMethod.Put, $"api/permissions/{Escape(vhost)}/{Escape(_user)}", new { configure = ".*", write = ".*", read = ".*" });
        return new UriBuilder(TestServices.RabbitMqUri) { Path = "/" + vhost }.Uri;
    }

    /// <summary>Creates (or updates) a user with <paramref name="tags"/> (none by default) and <paramref name="permissions"/> on <paramref name="vhost"/>.</summary>
    public async Task CreateUserAsync(string user, string password, string vhost, BrokerPermissions permissions, string tags = "")
    {
        await SendAsync(HttpMethod.Put, $"api/users/{Escape(user)}", new { password, tags });
        await SendAsync(HttpMethod.Put, $"api/permissions/{Escape(vhost)}/{Escape(user)}",
            new { configure = permissions.Configure, write = permissions.Write, read = permissions.Read });
    }

    /// <summary>Lets <paramref name="user"/> publish to and read from topic exchange <paramref name="exchange"/> with any routing key.</summary>
    public Task SetTopicPermissionAsync(string vhost, string user, string exchange) =>
        SendAsync(HttpMethod.Put, $"api/topic-permissions/{Escape(vhost)}/{Escape(user)}", new { exchange, write = ".*", read = ".*" });

    public Task DeleteUserAsync(string user) => SendAsync(HttpMethod.Delete, $"api/users/{Escape(user)}");

    public Task DeleteVhostAsync(string vhost) => SendAsync(HttpMethod.Delete, $"api/vhosts/{Escape(vhost)}");

    /// <summary>At most <paramref name="max"/> connections to the vhost (0 refuses every new one); null lifts the limit.</summary>
    public Task LimitConnectionsAsync(string vhost, int? max) => max is { } value
        ? SendAsync(HttpMethod.Put, $"api/vhost-limits/{Escape(vhost)}/max-connections", new { value })
        : SendAsync(HttpMethod.Delete, $"api/vhost-limits/{Escape(vhost)}/max-connections");

    /// <summary>The names of the vhost's connections whose client named itself <paramref name="clientName"/>.</summary>
    public async Task<IReadOnlyList<string>> ConnectionsAsync(string vhost, string clientName)
    {
        using var response = await _http.GetAsync(new Uri($"api/vhosts/{Escape(vhost)}/connections", UriKind.Relative));
        response.EnsureSuccessStatusCode();
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.EnumerateArray()
            .Where(c => c.TryGetProperty("client_properties", out var p) && p.TryGetProperty("connection_name", out var n) && n.GetString() == clientName)
            .Select(c => c.GetProperty("name").GetString()!)
            .ToList();
    }

    /// <summary>Closes a connection from the broker's side (CONNECTION_FORCED with <paramref name="reason"/>).</summary>
    public async Task CloseConnectionAsync(string name, string reason)
    {
        using var request = new HttpRequestMessage(HttpMethod.Delete, new Uri($"api/connections/{Escape(name)}", UriKind.Relative));
        request.Headers.Add("X-Reason", reason);
        using var response = await _http.SendAsync(request);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>
    /// How many messages were ever published into <paramref name="queue"/>, as the broker's statistics say (they are
    /// emitted every few seconds: wait for them to settle).
    /// </summary>
    public Task<long> PublishedIntoAsync(string vhost, string queue) => MessageStatAsync(vhost, queue, "publish");

    /// <summary>
    /// How often <paramref name="queue"/> handed a message to a consumer (deliveries and gets), and how many of those were
    /// redeliveries (a message handed out again after a requeue or a closed channel), as the broker's statistics say.
    /// </summary>
    public async Task<(long Delivered, long Redelivered)> DeliveredFromAsync(string vhost, string queue) =>
        (await MessageStatAsync(vhost, queue, "deliver_get"), await MessageStatAsync(vhost, queue, "redeliver"));

    private async Task<long> MessageStatAsync(string vhost, string queue, string name)
    {
        using var response = await _http.GetAsync(new Uri($"api/queues/{Escape(vhost)}/{Escape(queue)}", UriKind.Relative));
        response.EnsureSuccessStatusCode();
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.TryGetProperty("message_stats", out var stats) && stats.TryGetProperty(name, out var value)
            ? value.GetInt64()
            : 0;
    }

    /// <summary>
    /// Applies policy <paramref name="name"/> to the vhost's queues whose names match <paramref name="pattern"/>, with priority
    /// 100 (over an operator's); <paramref name="definition"/> holds its keys, e.g. <c>max-length</c>.
    /// </summary>
    public Task SetQueuePolicyAsync(string vhost, string name, string pattern, IReadOnlyDictionary<string, object> definition) =>
        SendAsync(HttpMethod.Put, $"api/policies/{Escape(vhost)}/{Escape(name)}",
            new Dictionary<string, object> { ["pattern"] = pattern, ["definition"] = definition, ["priority"] = 100, ["apply-to"] = "queues" });

    public Task DeletePolicyAsync(string vhost, string name) => SendAsync(HttpMethod.Delete, $"api/policies/{Escape(vhost)}/{Escape(name)}");

    /// <summary>
    /// Makes the broker refuse every publish into <paramref name="queue"/> (a policy of length 0 that rejects publishes, as a
    /// full queue does) while what it holds stays and is delivered; <see cref="DeletePolicyAsync"/> lifts it.
    /// </summary>
    public Task RefusePublishesAsync(string vhost, string policy, string queue) =>
        SetQueuePolicyAsync(vhost, policy, $"^{System.Text.RegularExpressions.Regex.Escape(queue)}$",
            new Dictionary<string, object> { ["max-length"] = 0, ["overflow"] = "reject-publish" });

    /// <summary>The vhost an AMQP URI names: its path unescaped, or <c>/</c> (the default vhost) when it has none.</summary>
    public static string VhostOf(Uri amqpUri) =>
        amqpUri.AbsolutePath.Length > 1 ? Uri.UnescapeDataString(amqpUri.AbsolutePath[1..]) : "/";

    /// <summary>A GET of the management API as JSON (<paramref name="path"/> relative to it, segments escaped); null on 404.</summary>
    public async Task<JsonElement?> GetJsonAsync(string path)
    {
        using var response = await _http.GetAsync(new Uri(path, UriKind.Relative));
        if (response.StatusCode == System.Net.HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.Clone();
    }

    /// <summary>Imports RabbitMQ definitions (users, vhosts, permissions), as <c>rabbitmqctl import_definitions</c> does.</summary>
    public async Task ImportDefinitionsAsync(string json)
    {
        using var content = new StringContent(json, Encoding.UTF8, "application/json");
        using var response = await _http.PostAsync(new Uri("api/definitions", UriKind.Relative), content);
        response.EnsureSuccessStatusCode();
    }

    public void Dispose() => _http.Dispose();

    private async Task SendAsync(HttpMethod method, string path, object? body = null)
    {
        using var request = new HttpRequestMessage(method, new Uri(path, UriKind.Relative)) { Content = body is null ? null : JsonContent.Create(body) };
        using var response = await _http.SendAsync(request);
        response.EnsureSuccessStatusCode();
    }

    public static string Escape(string segment) => Uri.EscapeDataString(segment);
}
