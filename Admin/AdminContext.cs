using System.Data.Common;
using System.Net.Sockets;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Admin.Operations;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;
using Notifications.Shared.Retention;
using Notifications.Shared.Templates;
using RabbitMQ.Client;

namespace Notifications.Admin;

/// <summary>
/// The configuration the workers use (appsettings.json beside the tool, environment variables such as
/// <c>RabbitMq__Uri</c>, then <c>--rabbitmq</c> / <c>--database</c>) and the connections made from it.
/// </summary>
internal sealed class AdminContext : IAsyncDisposable
{
    private readonly IServiceProvider _services;

    // Owned: the command line's own container, disposed with the context; a host's (the console's) is the host's to dispose.
    private readonly ServiceProvider? _owned;

    public AdminContext(IConfiguration configuration)
        : this(configuration, AddAdminServices(new ServiceCollection().AddSingleton(configuration), "notifications-admin").BuildServiceProvider())
    {
        _owned = (ServiceProvider)_services;
    }

    /// <summary>Over a host's services (the operators' console), which called <see cref="AddAdminServices"/> itself.</summary>
    public AdminContext(IConfiguration configuration, IServiceProvider services)
    {
        _services = services;
        // As the consumer reads it (Templates:DefaultLocale), for previews.
        DefaultLocale = configuration["Templates:DefaultLocale"] is { Length: > 0 } locale ? locale : "en";
    }

    /// <summary>What the operations need: the broker's options, the database's stores (as <paramref name="applicationName"/>) and the operations' own (search, dead-letter groups, jobs), templates.</summary>
    public static IServiceCollection AddAdminServices(IServiceCollection services, string applicationName) =>
        services.AddRabbitMqOptions().AddNotificationsDatabase(applicationName, DatabaseOptions.AdminPoolSize).AddOperationsStores().AddTemplates();

    /// <summary>The locale tried after the wanted one and its parents (the consumer's <c>Templates:DefaultLocale</c>).</summary>
    public string DefaultLocale { get; }

    public ITemplateStore Templates => Store<ITemplateStore>();

    public TemplateRenderer Renderer => _services.GetRequiredService<TemplateRenderer>();

    public RabbitMqOptions Rabbit => Resolve<RabbitMqOptions>();

    public DatabaseOptions Database => Resolve<DatabaseOptions>();

    public IOutboxStore Outbox => Store<IOutboxStore>();

    public IOperationsStore Operations => Store<IOperationsStore>();

    public IDeliveryLogStore DeliveryLog => Store<IDeliveryLogStore>();

    public IDeadLetterStore DeadLetters => Store<IDeadLetterStore>();

    public INotificationStatusStore Status => Store<INotificationStatusStore>();

    public ISuppressionStore Suppression => Store<ISuppressionStore>();

    public IWebhookEndpointStore WebhookEndpoints => Store<IWebhookEndpointStore>();

    public IOutcomeEventStore OutcomeEvents => Store<IOutcomeEventStore>();

    public IAudienceStore Audiences => Store<IAudienceStore>();

    public ILivePendingStore Live => Store<ILivePendingStore>();

    public RetentionOptions RetentionOptions => Resolve<RetentionOptions>();

    public RetentionCleanup Retention
    {
        get
        {
            _ = RetentionOptions;   // validates the options first, with a clear message
            return Store<RetentionCleanup>();
        }
    }

    /// <summary>One attempt, five seconds: an operator wants an answer, not a retry loop.</summary>
    public Task<IConnection> ConnectAsync(CancellationToken cancellationToken) => Broker.ConnectAsync(cancellationToken);

    public AdminBroker Broker => new(Rabbit);

    public NotificationStory Story => new(Status, Store<INotificationSearchStore>(), Live, Store<ILiveBroadcastStore>(), Audiences);

    public SubscriberLookup Subscribers => new(Audiences, Live);

    public IDeadLetterGroupStore DeadLetterGroups => Store<IDeadLetterGroupStore>();

    public DeadLetterBulk Bulk => new(Broker, DeliveryLog, DeadLetters, DeadLetterGroups);

    public IAdminJobStore Jobs => Store<IAdminJobStore>();

    /// <summary>A runner of bulk jobs in this process, as <paramref name="owner"/> (the command line runs the job it queued).</summary>
    public AdminJobRunner JobRunner(string owner) => new(Jobs, DeadLetterGroups, Bulk, Broker, owner);

    /// <summary>Runs a database call; an unreachable database becomes a clear message and exit code 3.</summary>
    public async Task<T> DatabaseAsync<T>(Func<Task<T>> call)
    {
        try
        {
            return await call();
        }
        catch (Exception ex) when (ex is DbException or SocketException or TimeoutException
                                       || (ex is InvalidOperationException && ex.InnerException is DbException or SocketException))
        {
            throw new AdminException(
                $"{Database.Provider} is unreachable or failed: {Innermost(ex).Message} (set Database__ConnectionString or --database)",
                ExitCodes.Unavailable, ex);
        }
    }

    public ValueTask DisposeAsync() => _owned?.DisposeAsync() ?? ValueTask.CompletedTask;

    private T Resolve<T>()
        where T : class
    {
        try
        {
            return _services.GetRequiredService<IOptions<T>>().Value;
        }
        catch (OptionsValidationException ex)
        {
            throw new AdminException($"configuration: {string.Join("; ", ex.Failures)}", ExitCodes.Usage, ex);
        }
    }

    private T Store<T>()
        where T : notnull
    {
        _ = Database;   // validates the options first, with a clear message
        return _services.GetRequiredService<T>();
    }

    /// <summary>The innermost exception of <paramref name="ex"/>: the message that names the cause (refused, timed out, ...).</summary>
    internal static Exception Innermost(Exception ex) => ex.InnerException is { } inner ? Innermost(inner) : ex;
}
