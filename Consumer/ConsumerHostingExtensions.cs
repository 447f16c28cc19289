using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Benchmarking;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels.Email.Attachments;
using Notifications.Consumer.Channels.Live;
using Notifications.Consumer.Channels.Push;
using Notifications.Consumer.Channels.Webhook;
using Notifications.Consumer.DeadLetterInbox;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Outcomes;
using Notifications.Consumer.Suppression;
using Notifications.Consumer.Telemetry;
using Notifications.Consumer.Templates;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer;

/// <summary>DI wiring of the consumer worker.</summary>
public static class ConsumerHostingExtensions
{
    /// <summary>Adds the competing-consumer service and everything it needs.</summary>
    public static IHostApplicationBuilder AddConsumer(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<ConsumerOptions>().BindConfiguration(ConsumerOptions.SectionName)
            .ValidateDataAnnotations()
            .Validate(o => o.Lanes is > 0 and <= (ConsumerLanes.Standard | ConsumerLanes.Urgent),
                "Consumer:Lanes must name the lanes this process consumes: Standard, Urgent, or Standard, Urgent")
            .ValidateOnStart();
        builder.Services.AddOptions<RelayOptions>().BindConfiguration(RelayOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<InfrastructureOptions>().BindConfiguration(InfrastructureOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<SmtpOptions>().BindConfiguration(SmtpOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<DkimOptions>().BindConfiguration(DkimOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        // Bounces:Domain: the envelope sender of each email becomes its notification's signed return path (docs/bounces.md).
        builder.Services.AddReturnPath();
        builder.Services.AddRabbitMqOptions().AddNotificationsDatabase("notifications-consumer", DatabaseOptions.ConsumerPoolSize).AddFaultInjection().AddRateLimiting().AddTemplateRendering();
        builder.Services.AddSingleton(TimeProvider.System);
        builder.AddNotificationsOperations(defaultPort: 9465, "notifications-consumer", ConsumerMetrics.MeterName);
        builder.Services.AddSingleton<ConsumerMetrics>();
        builder.Services.AddSingleton<ConsumerStats>();
        builder.Services.AddSingleton<EmailSenderFactory>();
        builder.Services.AddAttachedFiles();
        builder.Services.AddSingleton<IChannel, EmailChannel>();
        builder.Services.AddWebhookChannel();
        builder.Services.AddPushChannel();
        builder.Services.AddLiveChannel();
        builder.Services.AddSingleton<ChannelRegistry>();
        builder.Services.AddSingleton<RelayBreaker>();
        builder.Services.AddSingleton<InfrastructureBreaker>();
        builder.Services.AddSingleton(sp => sp.GetRequiredService<IOptions<ConsumerOptions>>().Value);
        builder.Services.AddHostedService<ConsumerService>();
        builder.Services.AddSingleton<InboxRecorder>();
        builder.Services.AddHostedService<KillSwitchService>();
        builder.Services.AddHostedService<ConsumerMonitorService>();
        builder.Services.AddRetentionCleanup();
        builder.Services.AddSuppression();
        builder.Services.AddOutcomeEvents();
        builder.Services.AddSingleton<Preferences.PreferenceCheck>();
        // In-flight handlers get ConsumerOptions.ShutdownTimeout; the host must wait a little longer.
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(30));
        return builder;
    }
}
