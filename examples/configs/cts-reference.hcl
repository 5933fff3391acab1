# A CTS configuration for one instance with the Terraform driver: every block of such a daemon, and
# every field it sets is acted on (none of README.md's "Settings accepted without effect"; the
# high_availability block and the terraform-cloud driver are in README.md's examples).
# Validate it with: cts-runtime validate -config-file examples/configs/cts-reference.hcl
# Its JSON twin, cts-reference.json, means exactly the same.

log_level   = "INFO"
port        = 8558
working_dir = "sync-tasks"
id          = "cts-reference"

syslog {
  enabled  = false
  facility = "LOCAL0"
  name     = "consul-terraform-sync"
}

buffer_period {
  enabled = true
  min     = "5s"
  max     = "20s"
}

# TLS for cts-runtime's own API (not for Consul).
tls {
  enabled         = false
  cert            = ""
  key             = ""
  verify_incoming = false
  ca_cert         = ""
  ca_path         = ""
}

consul {
  address = "localhost:8500"
  token   = "00000000-0000-0000-0000-000000000000"
  kv_path = "consul-terraform-sync/"

  auth {
    enabled  = false
    username = "cts"
    password = "not-a-real-password"
  }

  tls {
    enabled     = false
    verify      = true
    ca_cert     = ""
    ca_path     = ""
    cert        = ""
    key         = ""
    server_name = ""
  }

  transport {
    dial_keep_alive         = "30s"
    dial_timeout            = "30s"
    disable_keep_alives     = false
    idle_conn_timeout       = "5s"
    max_idle_conns          = 0
    max_idle_conns_per_host = 100
    tls_handshake_timeout   = "10s"
  }

  service_registration {
    enabled      = true
    service_name = "consul-terraform-sync"
    address      = ""
    namespace    = ""
    default_check {
      enabled = true
      address = "http://localhost:8558"
    }
  }
}

# Vault is only used to resolve {{ with secret "..." }} in terraform_provider blocks.
vault {
  enabled   = false
  address   = ""
  namespace = ""
  tls {
    verify = true
  }
  transport {
    dial_timeout = "30s"
  }
}

driver "terraform" {
  log         = false
  persist_log = false

  backend "consul" {
    path = "consul-terraform-sync/terraform"
    gzip = true
  }

  required_providers {
    local = {
      source  = "hashicorp/local"
      version = ">= 2.0.0"
    }
  }
}

terraform_provider "local" {
}

terraform_provider "null" {
  alias = "primary"
  # Written as an attribute here; the block form of CTS's docs (task_env { "K" = "v" }) loads too.
  task_env = {
    "NULL_PROVIDER_MODE" = "primary"
  }
}

terraform_provider "null" {
  alias = "secondary"
  task_env = {
    "NULL_PROVIDER_MODE" = "{{ env \"NULL_MODE\" }}"
  }
}

task {
  name        = "web-services"
  description = "Watches web and api by name"
  enabled     = true
  providers   = ["local", "null.primary"]
  module      = "./modules/print-services"
  version     = ""
  variables = {
    greeting = "\"hello\""
  }

  buffer_period {
    min = "10s"
    max = "40s"
  }

  condition "services" {
    names      = ["web", "api"]
    datacenter = "dc1"
    filter     = "Service.Tags not contains \"canary\""
    cts_user_defined_meta = {
      team = "web"
    }
    use_as_module_input = true
  }

  module_input "consul-kv" {
    path    = "config/web"
    recurse = true
  }
}

task {
  name      = "all-api-services"
  module    = "./modules/print-services"
  providers = ["null.secondary"]

  condition "services" {
    regexp = "^api-"
  }
}

task {
  name   = "catalog-watch"
  module = "./modules/print-catalog"

  condition "catalog-services" {
    regexp     = ".*"
    datacenter = "dc1"
    node_meta = {
      rack = "r1"
    }
    use_as_module_input = true
  }

  module_input "services" {
    regexp = "^db-"
  }
}

task {
  name   = "kv-watch"
  module = "./modules/print-kv"

  condition "consul-kv" {
    path                = "config/feature-flags"
    recurse             = false
    use_as_module_input = true
  }
}

task {
  name    = "nightly"
  enabled = false
  module  = "./modules/print-services"

  condition "schedule" {
    cron = "0 3 * * *"
  }

  module_input "services" {
    names = ["web"]
  }
}

# A third-party driver package, loaded by path (relative to this file).
plugin "driver-echo" {
  source = "../cts-driver-echo"
  options = {
    driverName = "echo"
    pretty     = true
  }
}
