"""Reference data (the environment-variable table). Data only; rules read it."""
